/// A system call that failed for a reason other than a file's: starting a thread, reading the
/// clock. (File operations throw ``FileError``, which names the path.)
package struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done, as in "cannot \(operation)" (`start thread crash-delivery`).
    package var operation: String
    package var errno: Int32

    package init(_ operation: String, errno: Int32) {
        self.operation = operation
        self.errno = errno
    }

    package var description: String { "cannot \(operation): \(Errno.text(errno))" }
}
