import CrashReporterSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `count` bytes of an open file at `offset`, with `pread` (interrupted calls retried): what the
/// ELF reader (``ELFImageFile``) reads headers and notes with.
enum PositionalRead {
    /// The bytes read, fewer at the end of the file; throws when a read failed.
    static func bytes(_ fd: Int32, at offset: UInt64, count: Int) throws(SystemCallError) -> [UInt8] {
        guard count > 0, offset <= UInt64(Int64.max) else { return [] }
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let result = try SystemCall.run("pread") {
                buffer.withUnsafeMutableBytes { bytes in
                    pread(fd, bytes.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                }
            }
            if result == 0 { break }
            done += result
        }
        return Array(buffer.prefix(done))
    }
}
