import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An errno turned into an error with the call and path that failed.
struct SystemError: Error, CustomStringConvertible, Sendable {
    var call: String
    var path: String
    var code: Int32

    var description: String { "\(call) \(path): \(String(cString: strerror(code)))" }
}

/// Durable writes: a file becomes visible under its name only when its bytes are on disk.
enum DurableFile {
    enum Outcome: Equatable {
        case created
        /// A file of that name already existed; it is left as it was.
        case alreadyExists
    }

    /// Writes `data` to `directory/<name>.<random>.tmp`, fsyncs it, links it to `directory/name`
    /// unless that name exists (link(2) fails with EEXIST: no race between two writers of one
    /// name), removes the temporary name and fsyncs the directory.
    static func create(_ data: Data, name: String, in directory: String) throws(SystemError) -> Outcome {
        let temporary = "\(directory)/.\(name).\(UInt64.random(in: 0...UInt64.max)).tmp"
        let final = "\(directory)/\(name)"
        try write(data, to: temporary)
        defer { unlink(temporary) }
        if link(temporary, final) != 0 {
            let code = errno
            if code == EEXIST { return .alreadyExists }
            throw SystemError(call: "link", path: final, code: code)
        }
        try syncDirectory(directory)
        return .created
    }

    /// Creates `path` (failing if it exists), writes everything, fsyncs and closes it.
    static func write(_ data: Data, to path: String) throws(SystemError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SystemError(call: "open", path: path, code: errno) }
        defer { close(fd) }
        try writeAll(fd, data, path: path)
        guard fsync(fd) == 0 else { throw SystemError(call: "fsync", path: path, code: errno) }
    }

    /// Appends `data` with one write sequence and fsyncs, to a file opened with `O_APPEND`.
    static func append(_ data: Data, fd: Int32, path: String) throws(SystemError) {
        try writeAll(fd, data, path: path)
        guard fsync(fd) == 0 else { throw SystemError(call: "fsync", path: path, code: errno) }
    }

    static func writeAll(_ fd: Int32, _ data: Data, path: String) throws(SystemError) {
        let result: Int32 = data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return 0
        }
        if result != 0 { throw SystemError(call: "write", path: path, code: result) }
    }

    /// fsync on the directory, so that a new name in it survives a power cut.
    static func syncDirectory(_ directory: String) throws(SystemError) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError(call: "open", path: directory, code: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw SystemError(call: "fsync", path: directory, code: errno) }
    }

    /// Creates a directory and its parents; fine if it exists.
    static func makeDirectory(_ path: String) throws(SystemError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw SystemError(call: "mkdir", path: path, code: EACCES)
        }
    }

    /// Removes the temporary files a writer that died left behind.
    static func removeTemporaryFiles(in directory: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            unlink("\(directory)/\(name)")
        }
    }
}
