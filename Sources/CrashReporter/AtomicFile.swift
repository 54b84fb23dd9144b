import Foundation

/// Writes a file so that a reader sees the old content or the new one, never half of it.
enum AtomicFile {
    static func write(_ data: Data, to path: String) throws {
        let tmp = path + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: tmp, contents: data, attributes: [.posixPermissions: 0o600])
        else { throw CrashReporterError.cannotWrite(path: tmp, errno: errno) }
        if rename(tmp, path) != 0 {
            let code = errno
            unlink(tmp)
            throw CrashReporterError.cannotWrite(path: path, errno: code)
        }
    }
}
