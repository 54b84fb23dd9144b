import CrashReporterSupport
import Glibc

/// Why `CrashReporter.start` or a stored choice failed.
public enum CrashReporterError: Error, CustomStringConvertible, Equatable {
    /// `start` was called a second time in this process.
    case alreadyStarted
    /// The state directory or one of its folders could not be made; `errno` says why.
    case cannotCreateDirectory(path: String, errno: Int32)
    /// A file (or a directory that must take the reports) could not be written; `errno` says why.
    case cannotWrite(path: String, errno: Int32)
    /// A report's path in the state directory would pass the handler's fixed path buffer.
    case pathTooLong(path: String)
    /// An option or environment variable breaks its rule; the text names it and why.
    case invalidOption(String)
    /// The memory the handler needs could not be reserved at start.
    case outOfMemory
    /// `sigaction` or `sigaltstack` failed; `errno` says why.
    case cannotInstallHandlers(errno: Int32)

    public var description: String {
        switch self {
        case .alreadyStarted: return "the crash reporter is already started in this process"
        case .cannotCreateDirectory(let path, let code): return "cannot create \(path): \(Errno.text(code))"
        case .cannotWrite(let path, let code): return "cannot write \(path): \(Errno.text(code))"
        case .pathTooLong(let path): return "state directory path is too long: \(path)"
        case .invalidOption(let text): return "invalid option: \(text)"
        case .outOfMemory: return "cannot reserve memory for the crash handler"
        case .cannotInstallHandlers(let code): return "cannot install signal handlers: \(Errno.text(code))"
        }
    }

    /// A file operation's failure in the public error's terms: making a directory, or writing
    /// (a file, or a directory that must take the reports). The reader's own refusals (not a
    /// regular file, too large) never come here; they count as EIO.
    init(_ error: FileError) {
        let code = error.errno ?? EIO
        switch error.action {
        case .createDirectory: self = .cannotCreateDirectory(path: error.path, errno: code)
        default: self = .cannotWrite(path: error.path, errno: code)
        }
    }
}
