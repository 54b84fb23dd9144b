import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a whole report file with plain POSIX calls: one `open`, then `fstat` on that
/// descriptor (so the type and size checked are those of the file read), then `read`.
package enum ReportFile {
    enum Failure: Error {
        case system(path: String, errno: Int32)
        case notRegular(path: String)
        case tooLarge
    }

    static func read(path: String, limit: Int) throws(Failure) -> Data {
        // O_NONBLOCK: opening a FIFO must not hang; it is refused by the type check below.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 { throw .system(path: path, errno: errno) }
        defer { close(fd) }
        var status = stat()
        if fstat(fd, &status) != 0 { throw .system(path: path, errno: errno) }
        if (status.st_mode & S_IFMT) != S_IFREG { throw .notRegular(path: path) }
        if status.st_size > limit { throw .tooLarge }

        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(path: path, errno: errno)
            }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
            // The file may have grown since fstat.
            if data.count > limit { throw .tooLarge }
        }
    }

    // `read` alone would be Data's or a method's in some scopes; name the C function.
    private static func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.read(fd, buffer, count)
        #else
            Darwin.read(fd, buffer, count)
        #endif
    }

    /// `strerror`'s text in lower case ("no such file or directory").
    package static func describe(errno code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        let message = String(cString: text)
        return message.prefix(1).lowercased() + message.dropFirst()
    }
}
