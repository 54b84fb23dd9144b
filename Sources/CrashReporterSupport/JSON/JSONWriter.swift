/// Appends JSON text to a byte array, without making a `String` per piece: the one JSON writer
/// of the package. Tracking encodes each event on the thread that tracks it with the small
/// appending calls (`raw`, `string`, `unsigned`); ``value(_:pretty:escaping:)`` writes a whole
/// ``JSONValue`` the way Foundation's `JSONEncoder` does with `.sortedKeys` and
/// `.withoutEscapingSlashes` (and `.prettyPrinted` when `pretty`), byte for byte.
package struct JSONWriter: Sendable {
    /// What is escaped in strings besides what JSON requires.
    package enum Escaping: Sendable {
        /// `"`, `\` and U+0000–U+001F, as `JSONEncoder` does: `\"`, `\\`, `\b`, `\f`, `\n`,
        /// `\r`, `\t` and `\u00XX` for the other control characters. `/` is not escaped.
        case standard
        /// Also DEL and the C1 controls U+0080–U+009F as `\u00XX`: for text shown on a terminal.
        case terminalSafe
    }

    /// The text written so far. Callers may inspect it, cut it back (`removeSubrange`) or
    /// append bytes that are already JSON.
    package var bytes: [UInt8] = []

    package init(capacity: Int = 512) { bytes.reserveCapacity(capacity) }

    /// Appends text that is already JSON (punctuation, member names known to need no escapes).
    @inline(__always)
    package mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    @inline(__always)
    package mutating func byte(_ byte: UInt8) { bytes.append(byte) }

    package mutating func null() { raw("null") }

    package mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// A decimal number, without making a `String`.
    package mutating func unsigned(_ value: UInt64) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var rest = value
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[index...]))
        }
    }

    package mutating func signed(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        unsigned(value.magnitude)
    }

    /// A double as `JSONEncoder` writes it: integral values below 2^53 as integers (`123`,
    /// `-0`), the rest as Swift's shortest round-tripping text without a trailing `.0`
    /// (`0.5`, `1e-07`, `1e+16`). NaN and infinities, which JSON cannot hold, as `null`.
    package mutating func double(_ value: Double) {
        guard value.isFinite else { return null() }
        if value.rounded(.towardZero) == value, value.magnitude < 9_007_199_254_740_992 {
            if value == 0, value.sign == .minus { return raw("-0") }
            return signed(Int64(value))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    package mutating func number(_ number: JSONNumber) {
        switch number {
        case .int(let value): signed(value)
        case .uint(let value): unsigned(value)
        case .double(let value): double(value)
        }
    }

    /// A quoted, escaped string.
    package mutating func string(_ string: String, escaping: Escaping = .standard) {
        bytes.append(UInt8(ascii: "\""))
        // Literals and native strings in place; bridged or lazy ones through a contiguous copy.
        if string.utf8.withContiguousStorageIfAvailable({ appendEscaped($0, escaping) }) == nil {
            var copy = string
            copy.withUTF8 { appendEscaped($0, escaping) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A quoted, escaped string from UTF-8 bytes (which are copied as they are).
    package mutating func string(utf8: UnsafeBufferPointer<UInt8>, escaping: Escaping = .standard) {
        bytes.append(UInt8(ascii: "\""))
        appendEscaped(utf8, escaping)
        bytes.append(UInt8(ascii: "\""))
    }

    /// The escaping routine: copies runs that need no escape in one append (most strings are
    /// one run), and writes the short escapes that `JSONEncoder` writes.
    @inline(__always)
    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, _ escaping: Escaping) {
        // Most strings need no escape at all: a tight scan, then one append.
        if escaping == .standard,
            !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
        {
            bytes.append(contentsOf: utf8)
            return
        }
        var start = 0
        var index = 0
        let count = utf8.count
        while index < count {
            let byte = utf8[index]
            var scalar = UInt32(byte)
            var length = 1
            if byte >= 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                guard escaping == .terminalSafe else {
                    index += 1
                    continue
                }
                if byte == 0xC2, index + 1 < count, utf8[index + 1] >= 0x80, utf8[index + 1] <= 0x9F {
                    scalar = UInt32(utf8[index + 1])  // U+0080–U+009F
                    length = 2
                } else if byte != 0x7F {
                    index += 1
                    continue
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
            index += length
            start = index
            bytes.append(UInt8(ascii: "\\"))
            switch scalar {
            case 0x22, 0x5C: bytes.append(byte)
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            default:
                bytes.append(UInt8(ascii: "u"))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(Self.hexDigit(UInt8(scalar >> 4)))
                bytes.append(Self.hexDigit(UInt8(scalar & 0xF)))
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<count]))
    }

    /// A lower-case hexadecimal digit.
    @inline(__always)
    package static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// A UUID as a quoted lower-case string.
    package mutating func uuid(_ id: UUIDBytes) {
        bytes.append(UInt8(ascii: "\""))
        id.appendText(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// A time as a quoted `"2026-10-23T12:04:31.512Z"`.
    package mutating func timestamp(_ time: Timestamp) {
        bytes.append(UInt8(ascii: "\""))
        time.appendISO8601(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// A whole value: keys sorted by their UTF-8 bytes (as `JSONEncoder` sorts them on Linux),
    /// compact, or pretty-printed as `JSONEncoder` does it (two spaces per level, `"key" : value`,
    /// empty containers as `[` newline newline `]`).
    package mutating func value(_ value: JSONValue, pretty: Bool = false, escaping: Escaping = .standard) {
        write(value, indent: pretty ? 0 : -1, escaping)
    }

    /// `indent` is the nesting level when pretty-printing, -1 for compact output.
    private mutating func write(_ value: JSONValue, indent: Int, _ escaping: Escaping) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let number): self.number(number)
        case .string(let text): string(text, escaping: escaping)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                separate(first: index == 0, indent: indent)
                write(element, indent: indent < 0 ? -1 : indent + 1, escaping)
            }
            close(indent: indent, empty: elements.isEmpty, bracket: UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (index, member) in sorted.enumerated() {
                separate(first: index == 0, indent: indent)
                string(member.key, escaping: escaping)
                if indent < 0 { raw(":") } else { raw(" : ") }
                write(member.value, indent: indent < 0 ? -1 : indent + 1, escaping)
            }
            close(indent: indent, empty: members.isEmpty, bracket: UInt8(ascii: "}"))
        }
    }

    /// Before an element: a comma after the first, and when pretty a newline and indentation.
    private mutating func separate(first: Bool, indent: Int) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        if indent >= 0 {
            bytes.append(UInt8(ascii: "\n"))
            spaces(2 * (indent + 1))
        }
    }

    /// After the elements: when pretty a newline (two for an empty container, as JSONEncoder
    /// writes them), the indentation, then the bracket.
    private mutating func close(indent: Int, empty: Bool, bracket: UInt8) {
        if indent >= 0 {
            if empty { bytes.append(UInt8(ascii: "\n")) }
            bytes.append(UInt8(ascii: "\n"))
            spaces(2 * indent)
        }
        bytes.append(bracket)
    }

    private mutating func spaces(_ count: Int) {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
    }
}
