import Glibc

/// A `pthread_mutex_t` of its own on the heap (a mutex must not move once initialised), made
/// error-checking (`PTHREAD_MUTEX_ERRORCHECK`) and every call's result checked: unlocking a
/// mutex this thread does not hold, or locking one it holds already, returns an error instead of
/// going on unguarded or hanging, and the check stops the program there with a message naming the
/// call and the error. It does so in release builds too: the check costs a compare of the owner's
/// thread id, and a lock rule broken silently would corrupt the state it guards. The one mutex
/// set-up that ``Lock`` and ``WaitableState`` share.
package final class POSIXMutex: @unchecked Sendable {
    // @unchecked: the pthread calls are what make it safe to share.
    let pointer: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        Self.check(pthread_mutexattr_init(&attributes), "pthread_mutexattr_init")
        Self.check(
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK)), "pthread_mutexattr_settype")
        Self.check(pthread_mutex_init(pointer, &attributes), "pthread_mutex_init")
        Self.check(pthread_mutexattr_destroy(&attributes), "pthread_mutexattr_destroy")
    }

    deinit {
        Self.check(pthread_mutex_destroy(pointer), "pthread_mutex_destroy")
        pointer.deallocate()
    }

    /// Locks; stops the program when this thread holds the lock already (`EDEADLK`).
    @inline(__always)
    package func lock() { Self.check(pthread_mutex_lock(pointer), "pthread_mutex_lock") }

    /// Unlocks; stops the program when this thread does not hold the lock (`EPERM`).
    @inline(__always)
    package func unlock() { Self.check(pthread_mutex_unlock(pointer), "pthread_mutex_unlock") }

    /// Stops the program when a pthread call returned an error (they return it, not `errno`):
    /// `pthread_mutex_unlock failed: operation not permitted (1)`.
    @inline(__always)
    static func check(_ result: Int32, _ call: StaticString) {
        precondition(result == 0, "\(call) failed: \(Errno.text(result)) (\(result))")
    }
}
