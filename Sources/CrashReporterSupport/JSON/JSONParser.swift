/// A strict RFC 8259 parser over UTF-8 bytes (use ``JSON/parse(_:depthLimit:)``).
///
/// - Any value may be the top-level one (`"text"`, `1`, `null`), with whitespace around it
///   and nothing else after it.
/// - No comments, trailing commas, single quotes, `NaN`, `Infinity`, leading `+` or zeros.
/// - Strings must be valid UTF-8 (no overlong forms, no encoded surrogates), control
///   characters must be escaped, and a `\u` escape of a surrogate must be a high one followed
///   by a low one.
/// - Integers that fit 64 bits are kept exactly; other numbers must fit a finite `Double`.
/// - Arrays and objects nest at most `depthLimit` deep. The parser itself keeps its open
///   containers on the heap, so no input can exhaust a thread's stack here; the limit protects
///   the recursive code that walks the result (writing, comparing, decoding, freeing it).
/// - A repeated object key keeps its last value (as `JSONSerialization` and JavaScript do).
///
/// One pass, no backtracking, no recursion; strings without escapes are made from the input in
/// one copy.
struct JSONParser {
    private let input: UnsafeBufferPointer<UInt8>
    private let depthLimit: Int
    private var index = 0
    /// The bytes of a string that has escapes, reused from string to string.
    private var scratch: [UInt8] = []

    static func parse(_ input: UnsafeBufferPointer<UInt8>, depthLimit: Int) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(input: input, depthLimit: depthLimit)
        let value = try parser.parseDocument()
        parser.skipWhitespace()
        if parser.index < input.count {
            throw parser.failure("unexpected \(parser.describeCurrent()) after the value")
        }
        return value
    }

    // MARK: Values

    /// Reads one value. Iterative, with the open containers on heap-allocated stacks: the
    /// depth of the input costs no stack, whatever thread parses it (the depth limit is for
    /// the recursive code that walks the result). The containers being filled are array
    /// elements of those stacks, changed in place, so adding a member never copies them.
    private mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        var open: [ContainerKind] = []  // innermost last
        var arrays: [[JSONValue]] = []
        var objects: [[String: JSONValue]] = []
        var keys: [String] = []  // of the member being read, per open object
        while true {
            // The start of a value: a scalar, or a container to open.
            skipWhitespace()
            guard index < input.count else { throw failure("unexpected end of input, expected a value") }
            var value: JSONValue
            switch input[index] {
            case UInt8(ascii: "["):
                if open.count >= depthLimit { throw failure("more than \(depthLimit) nested arrays and objects") }
                index += 1
                skipWhitespace()
                guard index < input.count, input[index] == UInt8(ascii: "]") else {
                    open.append(.array)
                    arrays.append([])
                    continue
                }
                index += 1
                value = .array([])
            case UInt8(ascii: "{"):
                if open.count >= depthLimit { throw failure("more than \(depthLimit) nested arrays and objects") }
                index += 1
                skipWhitespace()
                guard index < input.count, input[index] == UInt8(ascii: "}") else {
                    keys.append(try parseKey())
                    open.append(.object)
                    objects.append([:])
                    continue
                }
                index += 1
                value = .object([:])
            case UInt8(ascii: "\""):
                value = .string(try parseString())
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = .number(try parseNumber())
            default:
                throw failure("unexpected \(describeCurrent()), expected a value")
            }
            // A whole value: add it to its container, closing every container that ends here,
            // until one expects another member (back to the top) or none is left (done).
            closing: while let kind = open.last {
                skipWhitespace()
                switch kind {
                case .array: arrays[arrays.count - 1].append(value)
                case .object: objects[objects.count - 1][keys.removeLast()] = value
                }
                guard index < input.count else {
                    throw failure("unexpected end of input, expected ',' or '\(kind.closer)'")
                }
                switch input[index] {
                case UInt8(ascii: ","):
                    index += 1
                    skipWhitespace()
                    switch kind {
                    case .array:
                        if index < input.count, input[index] == UInt8(ascii: "]") {
                            throw failure("a trailing comma is not allowed")
                        }
                    case .object:
                        keys.append(try parseKey())
                    }
                    break closing
                case UInt8(ascii: kind.closer):
                    index += 1
                    open.removeLast()
                    value = kind == .array ? .array(arrays.removeLast()) : .object(objects.removeLast())
                default:
                    throw failure("unexpected \(describeCurrent()), expected ',' or '\(kind.closer)'")
                }
            }
            if open.isEmpty { return value }
        }
    }

    private enum ContainerKind {
        case array, object

        /// The character that ends it.
        var closer: Unicode.Scalar { self == .array ? "]" : "}" }
    }

    /// A member's key and the colon after it, at `index` (after whitespace).
    private mutating func parseKey() throws(JSONParseError) -> String {
        guard index < input.count else { throw failure("unexpected end of input, expected a string key") }
        guard input[index] == UInt8(ascii: "\"") else {
            if input[index] == UInt8(ascii: "}") { throw failure("a trailing comma is not allowed") }
            throw failure("unexpected \(describeCurrent()), expected a string key")
        }
        let key = try parseString()
        skipWhitespace()
        guard index < input.count, input[index] == UInt8(ascii: ":") else {
            throw failure("unexpected \(describeCurrent()), expected ':' after an object key")
        }
        index += 1
        return key
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let length = literal.utf8CodeUnitCount
        let matches = literal.withUTF8Buffer { expected in
            index + length <= input.count && (0..<length).allSatisfy { input[index + $0] == expected[$0] }
        }
        guard matches else { throw failure("invalid literal, expected \(literal)") }
        index += length
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = index
        let negative = input[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < input.count, Self.isDigit(input[index]) else {
            throw failure(
                index < input.count ? "expected a digit after '-'" : "unexpected end of input, expected a digit")
        }
        var magnitude: UInt64 = 0
        var overflow = false
        if input[index] == UInt8(ascii: "0") {
            index += 1
            if index < input.count, Self.isDigit(input[index]) {
                throw failure("a number cannot have a leading zero", at: start)
            }
        } else {
            while index < input.count, Self.isDigit(input[index]) {
                let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(UInt64(input[index] - UInt8(ascii: "0")))
                if o1 || o2 { overflow = true } else { magnitude = sum }
                index += 1
            }
        }
        var isInteger = true
        if index < input.count, input[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            try skipDigits(after: "'.'")
        }
        if index < input.count, input[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            if index < input.count, input[index] == UInt8(ascii: "+") || input[index] == UInt8(ascii: "-") {
                index += 1
            }
            try skipDigits(after: "the exponent")
        }
        if isInteger, !overflow {
            if !negative { return JSONNumber(magnitude) }
            if magnitude == 0 { return .double(-0.0) }  // keeps the sign of "-0"
            if magnitude <= UInt64(Int64.max) + 1 { return .int(Int64(truncatingIfNeeded: 0 &- magnitude)) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw failure("the number \(text.prefix(40)) does not fit a double", at: start)
        }
        return .double(value)
    }

    private mutating func skipDigits(after what: String) throws(JSONParseError) {
        guard index < input.count, Self.isDigit(input[index]) else {
            throw failure(
                index < input.count
                    ? "unexpected \(describeCurrent()), expected a digit after \(what)"
                    : "unexpected end of input, expected a digit after \(what)")
        }
        while index < input.count, Self.isDigit(input[index]) { index += 1 }
    }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    // MARK: Strings

    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        let start = index
        // Most strings have no escapes: validate them and make the String from the input.
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw failure("unescaped control character \(Self.hex(UInt32(byte))) in a string") }
            if byte < 0x80 { index += 1 } else { try skipUTF8Sequence() }
        }
        guard index < input.count else { throw failure("unexpected end of input inside a string") }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<index]))
        while index < input.count {
            let byte = input[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape()
            case 0..<0x20:
                throw failure("unescaped control character \(Self.hex(UInt32(byte))) in a string")
            case 0x80...:
                let sequenceStart = index
                try skipUTF8Sequence()
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[sequenceStart..<index]))
            default:
                scratch.append(byte)
                index += 1
            }
        }
        throw failure("unexpected end of input inside a string")
    }

    /// Appends the character of the escape at `index` (a backslash) to `scratch`.
    private mutating func parseEscape() throws(JSONParseError) {
        let escapeStart = index
        index += 1
        guard index < input.count else { throw failure("unexpected end of input inside a string") }
        let letter = input[index]
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(letter)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try hexQuad()
            var scalar = unit
            if (0xDC00...0xDFFF).contains(unit) {
                throw failure(
                    "lone surrogate \\u\(Self.hexDigits(unit)): a low surrogate without a high one", at: escapeStart)
            }
            if (0xD800...0xDBFF).contains(unit) {
                guard index + 1 < input.count, input[index] == UInt8(ascii: "\\"), input[index + 1] == UInt8(ascii: "u")
                else {
                    throw failure(
                        "lone surrogate \\u\(Self.hexDigits(unit)): a high surrogate must be followed by a low one",
                        at: escapeStart)
                }
                index += 2
                let low = try hexQuad()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw failure(
                        "lone surrogate \\u\(Self.hexDigits(unit)): a high surrogate must be followed by a low one",
                        at: escapeStart)
                }
                scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            }
            // Valid by construction: not a surrogate, at most U+10FFFF.
            scratch.append(contentsOf: UTF8.encode(Unicode.Scalar(scalar)!)!)
        default:
            index -= 1
            throw failure("invalid escape '\\\(describeCurrent(quoted: false))' in a string", at: escapeStart)
        }
    }

    /// The four hexadecimal digits of a `\u` escape.
    private mutating func hexQuad() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < input.count else { throw failure("unexpected end of input inside a string") }
            let byte = input[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("unexpected \(describeCurrent()), expected a hexadecimal digit in a \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Steps over one multi-byte UTF-8 sequence at `index`, or fails if it is not valid UTF-8.
    private mutating func skipUTF8Sequence() throws(JSONParseError) {
        guard let length = Self.sequenceLength(input, at: index) else {
            throw failure("invalid UTF-8 (byte \(Self.hex(UInt32(input[index]), digits: 2)))")
        }
        index += length
    }

    /// The length of the valid UTF-8 sequence of two to four bytes at `index` (RFC 3629:
    /// no overlong forms, no surrogates, nothing above U+10FFFF); `nil` when there is none.
    private static func sequenceLength(_ input: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = input[index]
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default: return nil
        }
        guard index + length <= input.count, (low...high).contains(input[index + 1]) else { return nil }
        for offset in 2..<length where !(0x80...0xBF).contains(input[index + offset]) { return nil }
        return length
    }

    // MARK: Whitespace and errors

    @inline(__always)
    private mutating func skipWhitespace() {
        while index < input.count {
            switch input[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
            default: return
            }
        }
    }

    private func failure(_ reason: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(reason: reason, offset: offset ?? index, in: input)
    }

    /// What is at `index`, for a message: `character 'x'`, `character U+0007`, `end of input`.
    private func describeCurrent(quoted: Bool = true) -> String {
        guard index < input.count else { return "end of input" }
        let byte = input[index]
        var scalar: Unicode.Scalar?
        if byte < 0x80 {
            scalar = Unicode.Scalar(byte)
        } else if let length = Self.sequenceLength(input, at: index) {
            var iterator = UnsafeBufferPointer(rebasing: input[index..<index + length]).makeIterator()
            var decoder = UTF8()
            if case .scalarValue(let decoded) = decoder.decode(&iterator) { scalar = decoded }
        }
        guard let scalar else { return "invalid UTF-8 (byte \(Self.hex(UInt32(byte), digits: 2)))" }
        let isPrintable =
            switch scalar.properties.generalCategory {
            case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator,
                .spaceSeparator:
                false
            default: true
            }
        if !quoted { return isPrintable ? String(scalar) : Self.hex(scalar.value) }
        return isPrintable ? "character '\(scalar)'" : "character \(Self.hex(scalar.value))"
    }

    /// `U+000A`.
    private static func hex(_ value: UInt32) -> String { "U+" + hexDigits(value) }

    /// `0xFF`.
    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// At least four upper-case hexadecimal digits.
    private static func hexDigits(_ value: UInt32) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }
}
