import CrashCollectorParsers
import CrashReportSentry
import CrashReporterSupport

/// `X-Sentry-Auth: Sentry sentry_version=7, sentry_key=..., sentry_client=...`. Envelopes
/// themselves are read with the collector's `SentryEnvelopeParser`; the shared module writes
/// this header (`SentryDSN.authHeader`) but has no reader for it.
enum SentryAuth {
    /// The `sentry_key` of the header, or of the `sentry_key` query parameter.
    static func key(header: String?, query: [String: String]) -> String? {
        if let header {
            var text = Substring(header).drop { $0 == " " }
            if text.lowercased().hasPrefix("sentry ") { text = text.dropFirst("sentry ".count) }
            for pair in text.split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingASCIIWhitespace() == "sentry_key" {
                    return String(parts[1].trimmingASCIIWhitespace())
                }
            }
        }
        return query["sentry_key"]
    }
}

/// Sentry event ids.
enum SentryEventID {
    /// An event id in Sentry's form: 32 lower-case hex digits (dashes removed), or nil. Taken
    /// as 32 hex digits or as a hyphenated UUID; it names a file, so nothing else passes.
    static func normalized(_ text: String?) -> String? {
        guard let text else { return nil }
        let uuid: UUIDBytes?
        switch text.utf8.count {
        case 36:
            uuid = UUIDBytes(text)
        case 32:
            // The hyphens put back where the canonical form has them, and read the same way.
            let digits = Array(text.utf8)
            let groups = [digits[0..<8], digits[8..<12], digits[12..<16], digits[16..<20], digits[20..<32]]
            uuid = UUIDBytes(groups.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "-"))
        default:
            uuid = nil
        }
        return uuid.map { String($0.description.filter { $0 != "-" }) }
    }
}
