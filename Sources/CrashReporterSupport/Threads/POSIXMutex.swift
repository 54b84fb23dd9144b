import Glibc

/// A `pthread_mutex_t` of its own on the heap (a mutex must not move once initialised), every
/// call's result checked: a failure means the program broke the mutex's rules (unlocking what it
/// does not hold, destroying a locked mutex), so it stops there, naming the call, rather than
/// going on unguarded. The one mutex set-up that ``Lock`` and ``Monitor`` share.
package final class POSIXMutex: @unchecked Sendable {
    // @unchecked: the pthread calls are what make it safe to share.
    let pointer: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: pthread_mutex_t())
        Self.check(pthread_mutex_init(pointer, nil), "pthread_mutex_init")
    }

    deinit {
        Self.check(pthread_mutex_destroy(pointer), "pthread_mutex_destroy")
        pointer.deallocate()
    }

    @inline(__always)
    package func lock() { Self.check(pthread_mutex_lock(pointer), "pthread_mutex_lock") }

    @inline(__always)
    package func unlock() { Self.check(pthread_mutex_unlock(pointer), "pthread_mutex_unlock") }

    /// Stops the program when a pthread call returned an error (they return it, not `errno`).
    @inline(__always)
    static func check(_ result: Int32, _ call: StaticString) {
        precondition(result == 0, "\(call) failed: \(Errno.text(result))")
    }
}
