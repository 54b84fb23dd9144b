import Foundation

/// File-system calls that turn errno into thrown errors.
enum FileSystem {
    /// `mkdir -p` with mode 0700: reports are the service's business only.
    static func makeDirectory(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return }
        let parent = (path as NSString).deletingLastPathComponent
        if parent != path, !parent.isEmpty { try makeDirectory(parent) }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw CrashReporterError.cannotCreateDirectory(path: path, errno: errno)
        }
    }

    /// Fails when reports could not be written there (a read-only mount, no permission), so
    /// that the service learns it at start rather than losing its first crash report.
    static func checkWritable(_ path: String) throws {
        if access(path, W_OK) != 0 { throw CrashReporterError.cannotWrite(path: path, errno: errno) }
    }
}
