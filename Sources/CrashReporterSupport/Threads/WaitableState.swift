import Glibc

/// State guarded by a POSIX mutex, with a condition variable to wait for it to change: what
/// `NSCondition` and `DispatchSemaphore` did. Waits are bounded by a deadline on
/// `CLOCK_MONOTONIC`, so setting the wall clock neither shortens nor stretches them.
package final class WaitableState<State: Sendable>: @unchecked Sendable {
    // @unchecked: `state` is only touched with `mutex` held.
    private let mutex = POSIXMutex()
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var state: State

    package init(_ initial: State) {
        state = initial
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        POSIXMutex.check(pthread_condattr_init(&attributes), "pthread_condattr_init")
        POSIXMutex.check(pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC), "pthread_condattr_setclock")
        POSIXMutex.check(pthread_cond_init(condition, &attributes), "pthread_cond_init")
        POSIXMutex.check(pthread_condattr_destroy(&attributes), "pthread_condattr_destroy")
    }

    deinit {
        POSIXMutex.check(pthread_cond_destroy(condition), "pthread_cond_destroy")
        condition.deallocate()
    }

    /// Reads or changes the state with the lock held, without waking anybody.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        mutex.lock()
        defer { mutex.unlock() }
        return try body(&state)
    }

    /// Changes the state with the lock held, then wakes every waiter to look at it again.
    package func update<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        mutex.lock()
        defer {
            POSIXMutex.check(pthread_cond_broadcast(condition), "pthread_cond_broadcast")
            mutex.unlock()
        }
        return try body(&state)
    }

    /// Waits until `ready` returns a value, or `timeout` seconds pass (`nil`: no limit).
    /// `ready` runs with the lock held: at once, then each time an ``update(_:)`` may have
    /// changed the state; what it returns (and any change it makes) is under the lock.
    /// Returns `nil` on timeout.
    package func wait<Result>(timeout: Double?, until ready: (inout State) throws -> Result?) rethrows -> Result? {
        let deadline = timeout.map(Self.deadline(after:))
        mutex.lock()
        defer { mutex.unlock() }
        while true {
            if let result = try ready(&state) { return result }
            if var deadline {
                let result = pthread_cond_timedwait(condition, mutex.pointer, &deadline)
                if result == ETIMEDOUT { return try ready(&state) }
                POSIXMutex.check(result, "pthread_cond_timedwait")
            } else {
                POSIXMutex.check(pthread_cond_wait(condition, mutex.pointer), "pthread_cond_wait")
            }
        }
    }

    /// The `CLOCK_MONOTONIC` time `seconds` from now (negative counts as zero; a huge or
    /// infinite timeout as about 68 years).
    private static func deadline(after seconds: Double) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let wait = seconds.isNaN ? 0 : min(max(seconds, 0), Double(Int32.max))
        let whole = Int(wait)
        var nanoseconds = Int(now.tv_nsec) + Int((wait - Double(whole)) * 1e9)
        var secondsPart = Int(now.tv_sec) + whole
        if nanoseconds >= 1_000_000_000 {
            nanoseconds -= 1_000_000_000
            secondsPart += 1
        }
        return timespec(tv_sec: secondsPart, tv_nsec: nanoseconds)
    }
}
