/// A bounds-checked reader over one section's bytes (mapped or decompressed): every read past
/// the end throws, and no arithmetic on what the file says can trap (a malformed debug file gives
/// an error, never a crash of the worker that reads it).
struct DWARFBytes {
    struct Truncated: Error {}

    let bytes: UnsafeRawBufferPointer
    var position: Int

    init(_ bytes: UnsafeRawBufferPointer, at position: Int = 0) {
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
        while true {
            let next = try byte()
            if shift < 64 { value |= UInt64(next & 0x7f) << shift }
            shift += 7
            if next & 0x80 == 0 {
                if shift < 64, next & 0x40 != 0 { value |= ~0 << shift }
                return Int64(bitPattern: value)
            }
        }
    }

    /// Moves past a LEB128 without decoding it.
    mutating func skipLEB() throws(Truncated) {
        while try byte() & 0x80 != 0 {}
    }

    mutating func skip(_ count: UInt64) throws(Truncated) {
        guard position >= 0, position <= bytes.count, count <= UInt64(bytes.count - position) else {
            throw Truncated()
        }
        position += Int(count)
    }

    /// A NUL-terminated string at the current position.
    mutating func cString() throws(Truncated) -> String {
        let start = position
        try skipCString()
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<(position - 1)]), as: UTF8.self)
    }

    mutating func skipCString() throws(Truncated) {
        while try byte() != 0 {}
    }

    /// The NUL-terminated string at `offset` of `bytes`; nil when there is none.
    static func string(in bytes: UnsafeRawBufferPointer, at offset: UInt64) -> String? {
        guard offset < UInt64(bytes.count) else { return nil }
        var reader = DWARFBytes(bytes, at: Int(offset))
        return try? reader.cString()
    }
}
