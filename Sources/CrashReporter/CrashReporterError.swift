import Foundation

/// Why `CrashReporter.start` or a stored choice failed.
public enum CrashReporterError: Error, CustomStringConvertible, Equatable {
    case alreadyStarted
    case cannotCreateDirectory(path: String, errno: Int32)
    case cannotWrite(path: String, errno: Int32)
    case pathTooLong(path: String)
    case invalidOption(String)
    case outOfMemory
    case cannotInstallHandlers(errno: Int32)

    public var description: String {
        switch self {
        case .alreadyStarted: return "the crash reporter is already started in this process"
        case .cannotCreateDirectory(let path, let code): return "cannot create \(path): \(Self.reason(code))"
        case .cannotWrite(let path, let code): return "cannot write \(path): \(Self.reason(code))"
        case .pathTooLong(let path): return "state directory path is too long: \(path)"
        case .invalidOption(let text): return "invalid option: \(text)"
        case .outOfMemory: return "cannot reserve memory for the crash handler"
        case .cannotInstallHandlers(let code): return "cannot install signal handlers: \(Self.reason(code))"
        }
    }

    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
