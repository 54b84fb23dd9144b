/// The rule for event names, shared by the tracker and the collector: `^[A-Za-z0-9_.:-]{1,64}$`.
/// A `$` followed by 1–63 of those characters is reserved for the events API itself.
public enum EventName {
    /// Why a name is refused, in the events API's codes.
    public enum Problem: String, Sendable, Equatable {
        /// `reserved_name`: `$` and 1–63 name characters.
        case reserved = "reserved_name"
        /// `invalid_name`: empty, longer than 64 bytes, or a character outside the set.
        case invalid = "invalid_name"
    }

    /// The longest name, in characters.
    public static let maxLength = 64

    /// Whether `name` may be tracked and sent.
    @inlinable
    public static func isValid(_ name: String) -> Bool {
        problem(name) == nil
    }

    /// Nil for a valid name, else why it is refused. One pass over the UTF-8 bytes.
    public static func problem(_ name: String) -> Problem? {
        // Literals and native strings: a plain loop over contiguous bytes, no iterator.
        if let valid = name.utf8.withContiguousStorageIfAvailable(allNameBytes), valid { return nil }
        var count = 0
        var allValid = true
        var startsWithDollar = false
        var restValid = true
        for byte in name.utf8 {
            if count == 0 && byte == UInt8(ascii: "$") {
                startsWithDollar = true
            } else if !isNameByte(byte) {
                allValid = false
                restValid = false
            }
            count += 1
            if count > maxLength { return .invalid }
        }
        if count == 0 { return .invalid }
        if startsWithDollar {
            return restValid && count >= 2 ? .reserved : .invalid
        }
        return allValid ? nil : .invalid
    }

    /// Whether `bytes` is a valid name: 1–64 bytes, each a name byte (so no `$`). Without a
    /// branch per byte: digits, letters and `_` alternate unpredictably in real names.
    private static func allNameBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 1, bytes.count <= maxLength else { return false }
        var bad: UInt8 = 0
        for byte in bytes {
            let letter: UInt8 = (byte | 0x20) &- UInt8(ascii: "a") < 26 ? 1 : 0
            let digitOrColon: UInt8 = byte &- UInt8(ascii: "0") < 11 ? 1 : 0  // `0`–`9`, `:`
            let dashOrDot: UInt8 = byte &- UInt8(ascii: "-") < 2 ? 1 : 0  // `-`, `.`
            let underscore: UInt8 = byte == UInt8(ascii: "_") ? 1 : 0
            bad |= 1 ^ (letter | digitOrColon | dashOrDot | underscore)
        }
        return bad == 0
    }

    @inline(__always)
    static func isNameByte(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"),
            UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}
