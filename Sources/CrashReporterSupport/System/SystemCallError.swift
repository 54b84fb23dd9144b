/// A system call that failed: which C function, on what, and the `errno` it left (or, for the
/// pthread functions, returned). One line: `pthread_create crash-delivery: resource temporarily
/// unavailable`. ``SystemCall/run(_:retryingInterrupts:_:)`` throws it; file operations turn it
/// into a ``FileError``, which names the path and what was being done to it.
package struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The C function as its manual page names it: `read`, `poll`, `pthread_create`.
    package var call: String
    /// Why it failed (`EACCES`, `EAGAIN`): what a caller that takes one code for an answer looks at.
    package var errno: Int32
    /// What the call was made on, for the message (a thread's name, an address); nil when the
    /// caller says it in its own words.
    package var subject: String?

    package init(_ call: String, errno: Int32, subject: String? = nil) {
        self.call = call
        self.errno = errno
        self.subject = subject
    }

    /// The same failure, naming what the call was made on.
    package func about(_ subject: String) -> SystemCallError {
        SystemCallError(call, errno: errno, subject: subject)
    }

    package var description: String {
        let what = subject.map { "\(call) \($0)" } ?? call
        return "\(what): \(Errno.text(errno))"
    }
}
