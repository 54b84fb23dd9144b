/// The 128 bits of a UUID (RFC 9562), held as two big-endian halves: `high` is bytes 0–7,
/// `low` bytes 8–15. Named apart from Foundation's `UUID`, which the tools may still import;
/// ``tuple`` and ``init(tuple:)`` convert to and from its `uuid_t`.
package struct UUIDBytes: Sendable, Hashable, Comparable, CustomStringConvertible {
    package var high: UInt64
    package var low: UInt64
}

extension UUIDBytes {
    /// The 16 bytes in order, as `uuid_t`.
    package typealias Tuple = (
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
    )

    package init(tuple: Tuple) {
        var halves: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &halves) { raw in withUnsafeBytes(of: tuple) { raw.copyMemory(from: $0) } }
        self.init(high: UInt64(bigEndian: halves.0), low: UInt64(bigEndian: halves.1))
    }

    package var tuple: Tuple {
        var bytes: Tuple = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let halves = (high.bigEndian, low.bigEndian)
        withUnsafeMutableBytes(of: &bytes) { raw in withUnsafeBytes(of: halves) { raw.copyMemory(from: $0) } }
        return bytes
    }

    /// These bits made into a version 4 (random) UUID: the version nibble set to 4 and the
    /// variant bits to RFC 9562's `10`.
    package init(version4 bits: (UInt64, UInt64)) {
        high = bits.0 & ~0xF000 | 0x4000
        low = bits.1 & ~(0b11 << 62) | (0b10 << 62)
    }

    /// The version nibble (4 for random UUIDs).
    package var version: Int { Int(high >> 12 & 0xF) }

    /// Parses the canonical 8-4-4-4-12 text, in either case (`nil` for anything else: no
    /// braces, no `urn:uuid:`, no missing hyphens).
    package init?(_ text: some StringProtocol) {
        // The bytes in place (native strings and substrings are contiguous), so that even an
        // unspecialized call makes one dynamic call, not one per character.
        let parsed =
            text.utf8.withContiguousStorageIfAvailable { UUIDBytes(utf8: $0) }
            ?? Array(text.utf8).withUnsafeBufferPointer { UUIDBytes(utf8: $0) }
        guard let parsed else { return nil }
        self = parsed
    }

    /// Parses the canonical text of a `String`, as the generic ``init(_:)`` does, without its
    /// dynamic calls when the caller's module cannot specialize it (a tracked event's id).
    package init?(_ text: String) {
        var text = text
        guard let parsed = text.withUTF8({ UUIDBytes(utf8: $0) }) else { return nil }
        self = parsed
    }

    /// Parses the canonical text from its UTF-8 bytes, as ``init(_:)`` does: for bytes read
    /// from a file, and for the hot path of every tracked event.
    package init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        let dash = UInt8(ascii: "-")
        guard bytes.count == 36, bytes[8] == dash, bytes[13] == dash, bytes[18] == dash, bytes[23] == dash else {
            return nil
        }
        var halves: (UInt64, UInt64) = (0, 0)
        var invalid: UInt8 = 0
        var position = 0
        for index in 0..<16 {
            if index == 4 || index == 6 || index == 8 || index == 10 { position &+= 1 }  // a dash
            let byte = Self.hexValue(bytes[position], &invalid) << 4 | Self.hexValue(bytes[position &+ 1], &invalid)
            if index < 8 {
                halves.0 = halves.0 << 8 | byte
            } else {
                halves.1 = halves.1 << 8 | byte
            }
            position &+= 2
        }
        guard invalid == 0 else { return nil }
        self.init(high: halves.0, low: halves.1)
    }

    /// The value of a hexadecimal digit of either case; sets `invalid` to 1 for any other byte.
    /// Without branches: a mix of digits and letters would mispredict them.
    @inline(__always)
    private static func hexValue(_ byte: UInt8, _ invalid: inout UInt8) -> UInt64 {
        let isDigit: UInt8 = byte &- UInt8(ascii: "0") < 10 ? 1 : 0
        let isLetter: UInt8 = (byte | 0x20) &- UInt8(ascii: "a") < 6 ? 1 : 0
        invalid |= 1 ^ (isDigit | isLetter)
        // `0`–`9` are 0x30–0x39, `A`–`F` and `a`–`f` end in 1–6 with bit 6 set.
        return UInt64((byte & 0xF) &+ 9 &* (byte >> 6))
    }

    /// Whether `text` is a UUID in the canonical 8-4-4-4-12 form, in either case.
    package static func isCanonical(_ text: some StringProtocol) -> Bool { UUIDBytes(text) != nil }

    /// The 36 lower-case characters, written straight into the string's storage (one
    /// allocation: this runs for every tracked event).
    package var description: String {
        String(unsafeUninitializedCapacity: 36) { buffer in
            writeText(to: UnsafeMutableRawBufferPointer(buffer))
            return 36
        }
    }

    /// Appends the 36 lower-case characters in one append.
    package func appendText(to bytes: inout [UInt8]) {
        var text: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)  // 40 bytes of room
        withUnsafeMutableBytes(of: &text) { out in
            writeText(to: out)
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: out[0..<36]))
        }
    }

    /// Writes the 36 characters to the start of `out`: two characters per byte from a table,
    /// no branch per nibble.
    @inline(__always)
    private func writeText(to out: UnsafeMutableRawBufferPointer) {
        let halves = (high.bigEndian, low.bigEndian)
        withUnsafeBytes(of: halves) { raw in
            Self.hexPairs.withUnsafeBufferPointer { pairs in
                var offset = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        out[offset] = UInt8(ascii: "-")
                        offset += 1
                    }
                    out.storeBytes(of: pairs[Int(raw[index])], toByteOffset: offset, as: (UInt8, UInt8).self)
                    offset += 2
                }
            }
        }
    }

    /// The two lower-case hexadecimal characters of each byte value.
    private static let hexPairs: [(UInt8, UInt8)] = (0...255).map { byte in
        let digits = Array("0123456789abcdef".utf8)
        return (digits[byte >> 4], digits[byte & 0xF])
    }

    package static func < (lhs: UUIDBytes, rhs: UUIDBytes) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }
}
