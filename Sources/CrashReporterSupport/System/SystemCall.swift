import Glibc

/// The one place that calls the system the POSIX way (a negative result and `errno`) and turns a
/// failure into a thrown ``SystemCallError``. Callers never read `errno` themselves; one that
/// takes a particular code for an answer rather than a failure (`EAGAIN` on a non-blocking
/// socket, `ENOENT` for a file that may be gone, `EEXIST`) catches the error and looks at its
/// ``SystemCallError/errno``.
package enum SystemCall {
    /// Runs `body`, a call to the C function `call`, and returns its result when it is not
    /// negative. A call interrupted by a signal (`EINTR`) is made again, unless
    /// `retryingInterrupts` is false: `close` (Linux has let go of the descriptor by then, and a
    /// second `close` could close another thread's new one) and `connect` (the connection goes
    /// on being made; a second call fails with `EALREADY`). Any other failure throws, naming
    /// `call` and the `errno` the call left.
    @inline(__always)
    package static func run<Result: SignedInteger>(
        _ call: StaticString, retryingInterrupts: Bool = true, _ body: () -> Result
    ) throws(SystemCallError) -> Result {
        while true {
            let result = body()
            if result >= 0 { return result }
            let code = errno
            if code == EINTR && retryingInterrupts { continue }
            throw SystemCallError("\(call)", errno: code)
        }
    }
}
