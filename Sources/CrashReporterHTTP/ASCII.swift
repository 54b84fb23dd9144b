/// The few ASCII tests and conversions the URL and HTTP parsers share.
extension UInt8 {
    var isASCIIDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    var isASCIIHexDigit: Bool {
        isASCIIDigit || ((self | 0x20) >= UInt8(ascii: "a") && (self | 0x20) <= UInt8(ascii: "f"))
    }
    var isASCIILetter: Bool { (self | 0x20) >= UInt8(ascii: "a") && (self | 0x20) <= UInt8(ascii: "z") }
    /// Space or horizontal tab: the whitespace HTTP allows around header values.
    var isHTTPWhitespace: Bool { self == UInt8(ascii: " ") || self == UInt8(ascii: "\t") }
    var asciiLowercased: UInt8 { (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z")) ? self | 0x20 : self }

    /// A character allowed in a method or header name (RFC 9110's `tchar`).
    var isHTTPTokenCharacter: Bool {
        if isASCIIDigit || isASCIILetter { return true }
        return Array("!#$%&'*+-.^_`|~".utf8).contains(self)
    }
}

extension Collection where Element == UInt8 {
    /// The bytes without leading and trailing spaces, tabs, CR and LF: what HTTP's lines and
    /// header values are trimmed of (the support module's `trimmingASCIIWhitespace` also strips
    /// vertical tab and form feed, for text that is not HTTP).
    func trimmingHTTPWhitespace() -> SubSequence {
        let isSpace = { (byte: UInt8) in byte.isHTTPWhitespace || byte == 0x0D || byte == 0x0A }
        guard let first = firstIndex(where: { !isSpace($0) }) else { return self[endIndex...] }
        var last = first
        var index = first
        while index != endIndex {
            if !isSpace(self[index]) { last = index }
            index = self.index(after: index)
        }
        return self[first...last]
    }
}

extension String {
    /// Equal ignoring ASCII case, as HTTP compares header names and tokens.
    func equalsIgnoringASCIICase(_ other: String) -> Bool {
        utf8.count == other.utf8.count && zip(utf8, other.utf8).allSatisfy { $0.asciiLowercased == $1.asciiLowercased }
    }

    /// The string with surrounding spaces, tabs, CR and LF removed (see `trimmingHTTPWhitespace`).
    var trimmedHTTPWhitespace: String { String(decoding: Array(utf8).trimmingHTTPWhitespace(), as: UTF8.self) }
}
