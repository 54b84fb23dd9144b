import Glibc

extension FileSystem {
    /// Reads a whole regular file of at most `limit` bytes.
    ///
    /// One `open` (with `O_NONBLOCK`, so that a FIFO planted at the path cannot hang the
    /// reader), then `fstat` on that descriptor (so the type and size checked are those of the
    /// file read, not of whatever the path names a moment later), then `read` until the end.
    /// Refuses anything but a regular file, and a file that is, or grows while being read,
    /// larger than `limit`.
    package static func read(_ path: String, limit: Int) throws(FileError) -> [UInt8] {
        let descriptor = try call("open", .read, path) { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        defer { close(descriptor) }
        let file = try status(descriptor: descriptor, path: path)
        guard file.kind == .regular else { throw FileError(.read, path, .notRegularFile) }
        guard file.size <= limit else { throw FileError(.read, path, .tooLarge(limit: limit)) }

        var bytes: [UInt8] = []
        // One more than the size: the read that returns 0 (or finds growth) needs no new buffer.
        bytes.reserveCapacity(file.size + 1)
        while true {
            let start = bytes.count
            let room = max(bytes.capacity - start, 64 << 10)
            let wanted = min(room, limit + 1 - start)
            bytes.append(contentsOf: repeatElement(0, count: wanted))
            let count: Int
            do throws(SystemCallError) {
                count = try SystemCall.run("read") {
                    bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + start, wanted) }
                }
            } catch {
                throw FileError(.read, path, error)
            }
            bytes.removeLast(wanted - count)
            if count == 0 { return bytes }
            if bytes.count > limit { throw FileError(.read, path, .tooLarge(limit: limit)) }
        }
    }

    /// Reads a small file (`/proc` and `/sys` files, the run records) in at most `limit` bytes:
    /// one `open`, reads into a buffer of `limit` bytes until the end, one `close`, and no
    /// `fstat` (those files say size 0 anyway). Nil when it cannot be opened or read, or does not
    /// fit. For what `start` reads, where every system call counts.
    package static func readSmall(_ path: String, limit: Int = 4096) -> [UInt8]? {
        guard let descriptor = try? SystemCall.run("open", { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }) else {
            return nil
        }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var length = 0
        while length <= limit {
            let chunk = try? SystemCall.run("read") {
                bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + length, limit + 1 - length) }
            }
            guard let count = chunk else { return nil }
            if count == 0 { return Array(bytes[0..<length]) }
            length += count
        }
        return nil
    }
}
