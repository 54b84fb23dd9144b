import Glibc

/// The one place that retries a system call interrupted by a signal.
package enum SystemCall {
    /// Runs `call` again for as long as it fails with `EINTR` (a negative result and that
    /// `errno`), and returns its first other result; after a failure `errno` is the call's own.
    @inline(__always)
    package static func retryingInterrupts<Result: SignedInteger>(_ call: () -> Result) -> Result {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }
}
