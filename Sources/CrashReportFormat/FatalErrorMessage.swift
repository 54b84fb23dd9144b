/// A fatal error's message as a crash signature keeps it: without the file and line that the
/// runtime adds (both move with any edit), and without the `Fatal error: ` label.
///
/// The runtime's forms: `File.swift:12: Fatal error: boom`, `Fatal error: boom: file
/// File.swift, line 12`, `Fatal error: boom`, each possibly ending with a newline.
package enum FatalErrorMessage {
    static let label = "Fatal error: "

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
        }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        if let comma = text.ranges(of: ": file ").last,
            let lineMark = text[comma.upperBound...].firstRange(of: ", line "),
            !text[lineMark.upperBound...].isEmpty, text[lineMark.upperBound...].allSatisfy(\.isNumber)
        {
            text = text[..<comma.lowerBound]
        }
        let result = text.trimmingSpaces
        return result.isEmpty ? nil : result
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
