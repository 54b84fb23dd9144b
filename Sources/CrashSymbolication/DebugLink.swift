import CrashReportFormat
import CrashReporterSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A binary's `.gnu_debuglink` section: the name of its debug file (looked up as `DIR/NAME` in
/// each debug directory) and the CRC-32 of that file's bytes, which a candidate must match.
struct DebugLink: Equatable {
    var name: String
    var crc: UInt32

    /// The link of the ELF file at `path`; nil when it has none or it cannot be read.
    static func of(binaryAt path: String) -> DebugLink? {
        guard let file = try? ELFSections(path: path), let section = file.data(of: ".gnu_debuglink", limit: 4096)
        else { return nil }
        let bytes = Array(section)
        guard let end = bytes.firstIndex(of: 0), end > 0 else { return nil }
        let crcOffset = (end + 4) & ~3
        guard crcOffset + 4 <= bytes.count else { return nil }
        let name = String(decoding: bytes[..<end], as: UTF8.self)
        guard !name.contains("/"), name != ".", name != ".." else { return nil }
        return DebugLink(name: name, crc: bytes.withUnsafeBytes { $0.littleEndian(UInt32.self, at: crcOffset) })
    }

    /// The CRC-32 (the IEEE polynomial, as gdb and `objcopy --add-gnu-debuglink` compute it) of
    /// the file at `path`; nil when it cannot be read.
    static func crc32(ofFileAt path: String) -> UInt32? {
        guard let fd = try? SystemCall.run("open", { open(path, O_RDONLY | O_CLOEXEC) }) else { return nil }
        defer { close(fd) }
        var crc: UInt32 = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let chunk = try? SystemCall.run("read") {
                buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            }
            guard let count = chunk else { return nil }
            if count == 0 { return crc }
            crc = buffer.withUnsafeBytes { Gzip.crc32(crc, UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
    }
}
