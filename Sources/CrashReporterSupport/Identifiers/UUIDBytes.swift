/// The 128 bits of a UUID (RFC 9562), held as two big-endian halves: `high` is bytes 0–7,
/// `low` bytes 8–15. Named apart from Foundation's `UUID`, which the tools may still import;
/// ``tuple`` and ``init(tuple:)`` convert to and from its `uuid_t`.
package struct UUIDBytes: Sendable, Hashable, Comparable, CustomStringConvertible {
    package var high: UInt64
    package var low: UInt64

    package init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

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
        var halves: (UInt64, UInt64) = (0, 0)
        var count = 0
        var position = 0
        for byte in text.utf8 {
            defer { position += 1 }
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let nibble: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            if count < 16 {
                halves.0 = halves.0 << 4 | UInt64(nibble)
            } else {
                halves.1 = halves.1 << 4 | UInt64(nibble)
            }
            count += 1
        }
        guard position == 36, count == 32 else { return nil }
        self.init(high: halves.0, low: halves.1)
    }

    /// Whether `text` is a UUID in the canonical 8-4-4-4-12 form, in either case.
    package static func isCanonical(_ text: some StringProtocol) -> Bool { UUIDBytes(text) != nil }

    /// The 36 lower-case characters.
    package var description: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(36)
        appendText(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the 36 lower-case characters in one append: two characters per byte from a
    /// table, no branch per nibble (this runs for every tracked event).
    package func appendText(to bytes: inout [UInt8]) {
        var text: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)  // 40 bytes of room
        let halves = (high.bigEndian, low.bigEndian)
        withUnsafeMutableBytes(of: &text) { out in
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
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: out[0..<36]))
        }
    }

    /// The two lower-case hexadecimal characters of each byte value.
    private static let hexPairs: [(UInt8, UInt8)] = (0...255).map { byte in
        let digits = Array("0123456789abcdef".utf8)
        return (digits[byte >> 4], digits[byte & 0xF])
    }

    package static func < (lhs: UUIDBytes, rhs: UUIDBytes) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }
}
