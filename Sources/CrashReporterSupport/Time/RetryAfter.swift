/// The `Retry-After` header (RFC 9110 §10.2.3): how long a server asked us to wait.
package enum RetryAfter {
    /// Seconds to wait: delay-seconds (`120`; a decimal fraction is accepted too), or an HTTP
    /// date taken relative to `now` (zero once it has passed). Never negative. `nil` for a
    /// missing, empty or unreadable value (`soon`, `-5`, `1e3`, `inf`).
    package static func seconds(_ value: (some StringProtocol)?, now: Timestamp) -> Double? {
        guard let value else { return nil }
        let text = value.trimmingASCIIWhitespace()
        guard !text.isEmpty else { return nil }
        if let delay = Self.delaySeconds(text) { return delay }
        guard let date = Timestamp(httpDate: text, now: now) else { return nil }
        return max(0, date.seconds(since: now))
    }

    /// `1*DIGIT [ "." 1*DIGIT ]`.
    private static func delaySeconds(_ text: Substring) -> Double? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let isDigits = { (part: Substring) in
            !part.isEmpty && part.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        }
        guard parts.allSatisfy(isDigits), let seconds = Double(text), seconds.isFinite else { return nil }
        return seconds
    }
}
