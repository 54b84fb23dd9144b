/// State guarded by a POSIX mutex: what the library uses instead of `Synchronization.Mutex`.
///
/// On Linux `Mutex` locks with futex calls inside the standard library, which ThreadSanitizer
/// does not see, so every state it guards shows up as a data race in a service's
/// `swift test --sanitize=thread` run. A `pthread_mutex_t` is intercepted by every sanitizer, and
/// uncontended it costs about the same.
package final class Lock<State>: @unchecked Sendable {
    // @unchecked: `state` is only touched with `mutex` held.
    let mutex = POSIXMutex()
    private var state: State

    package init(_ initial: State) {
        state = initial
    }

    /// Reads or changes the state with the lock held.
    @inline(__always)
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        mutex.lock()
        defer { mutex.unlock() }
        return try body(&state)
    }
}

extension Lock where State == Void {
    package convenience init() { self.init(()) }

    /// Runs `body` with the lock held.
    @inline(__always)
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        mutex.lock()
        defer { mutex.unlock() }
        return try body()
    }
}
