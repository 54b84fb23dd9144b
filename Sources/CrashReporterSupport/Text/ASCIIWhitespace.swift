extension StringProtocol {
    /// The text without leading and trailing ASCII whitespace (space, tab, newline, carriage
    /// return, vertical tab, form feed): what header values, environment variables and
    /// one-line state files are trimmed of. Other Unicode spaces are kept.
    package func trimmingASCIIWhitespace() -> Substring {
        let text = Substring(self)
        guard let first = text.firstIndex(where: { !$0.isASCIIWhitespace }) else {
            return text[text.endIndex...]
        }
        let last = text.lastIndex(where: { !$0.isASCIIWhitespace })!
        return text[first...last]
    }
}

extension Character {
    /// Space, tab, newline, carriage return, vertical tab or form feed (also as `\r\n`).
    package var isASCIIWhitespace: Bool {
        switch self {
        case " ", "\t", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}": true
        default: false
        }
    }
}
