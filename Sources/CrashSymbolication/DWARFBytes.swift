/// A bounds-checked reader over one DWARF section's bytes: every read past the end throws, and
/// no arithmetic on what the file says can trap (a malformed debug file gives an error, never
/// a crash of the worker that reads it).
struct DWARFBytes {
    struct Truncated: Error {}

    let bytes: [UInt8]
    var position: Int
    /// Set when a signed LEB128 of exactly nine bytes with its sign bit set was read: the
    /// Swift runtime's DWARF reader traps on such a value (`-(1 << 63)` overflows), so a file
    /// that holds one must not reach it (docs/decisions.md).
    var sawLongNegativeSLEB = false

    init(_ bytes: [UInt8], at position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    var atEnd: Bool { position >= bytes.count }

    mutating func byte() throws(Truncated) -> UInt8 {
        guard position >= 0, position < bytes.count else { throw Truncated() }
        defer { position += 1 }
        return bytes[position]
    }

    /// A little-endian unsigned integer of `size` bytes (1 to 8).
    mutating func unsigned(size: Int) throws(Truncated) -> UInt64 {
        guard size >= 0, size <= 8, position >= 0, bytes.count - position >= size else { throw Truncated() }
        var value: UInt64 = 0
        for index in 0..<size { value |= UInt64(bytes[position + index]) << (8 * index) }
        position += size
        return value
    }

    mutating func uleb() throws(Truncated) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            if shift < 64 { value |= UInt64(next & 0x7f) << shift }
            shift += 7
            if next & 0x80 == 0 { return value }
        }
    }

    mutating func sleb() throws(Truncated) -> Int64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        var count = 0
        while true {
            let next = try byte()
            count += 1
            if shift < 64 { value |= UInt64(next & 0x7f) << shift }
            shift += 7
            if next & 0x80 == 0 {
                if count == 9, next & 0x40 != 0 { sawLongNegativeSLEB = true }
                if shift < 64, next & 0x40 != 0 { value |= ~0 << shift }
                return Int64(bitPattern: value)
            }
        }
    }

    mutating func skip(_ count: UInt64) throws(Truncated) {
        guard position >= 0, position <= bytes.count, count <= UInt64(bytes.count - position) else {
            throw Truncated()
        }
        position += Int(count)
    }

    /// A NUL-terminated string at the current position.
    mutating func cString() throws(Truncated) -> String {
        guard position >= 0, position < bytes.count, let end = bytes[position...].firstIndex(of: 0) else {
            throw Truncated()
        }
        defer { position = end + 1 }
        return String(decoding: bytes[position..<end], as: UTF8.self)
    }

    /// The NUL-terminated string at `offset` of `bytes`; nil when there is none.
    static func string(in bytes: [UInt8], at offset: UInt64) -> String? {
        guard offset < UInt64(bytes.count) else { return nil }
        var reader = DWARFBytes(bytes, at: Int(offset))
        return try? reader.cString()
    }
}
