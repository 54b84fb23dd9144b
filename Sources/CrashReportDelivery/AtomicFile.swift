import Foundation

/// Writes a file so that a reader sees the old content or the new one, never half of it:
/// a temporary file (mode 0600) renamed over the target.
public enum AtomicFile {
    public static func write(_ data: Data, to url: URL) throws(DeliveryError) {
        let tmp = url.path + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: tmp, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw .cannotWrite(tmp, errno: errno)
        }
        if rename(tmp, url.path) != 0 {
            let code = errno
            unlink(tmp)
            throw .cannotWrite(url.path, errno: code)
        }
    }
}
