/// A fatal error's message as a crash signature keeps it: without the file and line that the
/// runtime adds (both move with any edit), without the `Fatal error: ` label, and with each
/// address (`0x55d18d761a00`, different in every process) as `0x…`.
///
/// The runtime's forms: `File.swift:12: Fatal error: boom`, `Fatal error: boom: file
/// File.swift, line 12`, `Fatal error: boom`, each possibly ending with a newline;
/// `File.swift:12: Precondition failed: boom` keeps `Precondition failed: boom`.
package enum FatalErrorMessage {
    static let label = "Fatal error: "
    /// The runtime's other labels, which say what failed and so stay.
    static let otherLabels = ["Precondition failed: ", "Assertion failed: "]

    /// The message's own text, or nil when there is none.
    package static func stripped(_ message: String?) -> String? {
        guard let message else { return nil }
        var text = Substring(message)
        if let labelRange = text.firstRange(of: label) {
            let before = text[..<labelRange.lowerBound]
            // `path:line: ` before the label: a location, not part of the message.
            if before.isEmpty || isLocation(before.dropLast(2)) && before.hasSuffix(": ") {
                text = text[labelRange.upperBound...]
            }
        } else if let labelRange = otherLabels.lazy.compactMap({ text.firstRange(of: $0) }).first {
            // `Precondition failed: …` keeps its label, not its location.
            let before = text[..<labelRange.lowerBound]
            if isLocation(before.dropLast(2)) && before.hasSuffix(": ") { text = text[labelRange.lowerBound...] }
        }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        if let comma = text.ranges(of: ": file ").last,
            let lineMark = text[comma.upperBound...].firstRange(of: ", line "),
            !text[lineMark.upperBound...].isEmpty, text[lineMark.upperBound...].allSatisfy(\.isNumber)
        {
            text = text[..<comma.lowerBound]
        }
        let result = withoutAddresses(text.trimmingSpaces)
        return result.isEmpty ? nil : result
    }

    /// `object 0x55d18d761a00 was` as `object 0x… was`: an address differs in every process.
    static func withoutAddresses(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let range = rest.firstRange(of: "0x") {
            result += rest[..<range.lowerBound]
            let digits = rest[range.upperBound...].prefix { $0.isHexDigit }
            let startsWord = range.lowerBound == rest.startIndex || !rest[rest.index(before: range.lowerBound)].isLetter
            result += startsWord && digits.count >= 4 ? "0x…" : "0x" + digits
            rest = rest[range.upperBound...].dropFirst(digits.count)
        }
        return result + rest
    }

    /// `path:123`.
    static func isLocation(_ text: Substring) -> Bool {
        guard let colon = text.lastIndex(of: ":") else { return false }
        let line = text[text.index(after: colon)...]
        return colon > text.startIndex && !line.isEmpty && line.allSatisfy(\.isNumber)
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
