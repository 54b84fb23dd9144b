import CrashReporterHTTP
import CrashReporterSupport

/// The `key=value,key2=value2` lists of `OTEL_EXPORTER_OTLP_HEADERS` and
/// `OTEL_RESOURCE_ATTRIBUTES` (the W3C Baggage form without properties): entries split on `,`,
/// each on its first `=`, keys and values trimmed and percent-decoded; empty entries are skipped.
enum OTLPKeyValueList {
    /// The pairs in order. A bad entry is an error that names it; for `secret` lists (headers
    /// hold API keys) the error shows the keys only, every value as `***`.
    static func parse(_ raw: String?, name: String, secret: Bool) throws(SettingError) -> [(String, String)] {
        guard let text = Setting.text(raw) else { return [] }
        var pairs: [(String, String)] = []
        for (index, entry) in text.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
            let trimmed = entry.trimmingASCIIWhitespace()
            if trimmed.isEmpty { continue }
            func failure(_ why: String) -> SettingError {
                SettingError(
                    name: name, value: secret ? redacted(text) : text,
                    rule: "be key=value pairs separated by commas: entry \(index + 1) \(why)")
            }
            guard let equals = trimmed.firstIndex(of: "=") else { throw failure("has no '='") }
            let rawKey = trimmed[..<equals].trimmingASCIIWhitespace()
            let rawValue = trimmed[trimmed.index(after: equals)...].trimmingASCIIWhitespace()
            guard !rawKey.isEmpty else { throw failure("has an empty key") }
            guard let key = PercentDecoding.decode(rawKey), let value = PercentDecoding.decode(rawValue) else {
                throw failure("has a bad %-escape or is not UTF-8 once decoded")
            }
            pairs.append((key, value))
        }
        return pairs
    }

    /// A header pair checked for HTTP: a token name, a value without line breaks or controls.
    static func header(_ pair: (String, String), name: String) throws(SettingError) -> HTTPHeader {
        let (key, value) = pair
        let tokenCharacters = Set("!#$%&'*+-.^_`|~".utf8)
        let isToken = key.utf8.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || tokenCharacters.contains(byte)
        }
        guard isToken else {
            throw SettingError(name: name, value: key, rule: "name headers with HTTP token characters only")
        }
        guard value.utf8.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7f) }) else {
            throw SettingError(
                name: name, value: "\(key)=***", rule: "hold header values without line breaks or control characters")
        }
        return HTTPHeader(name: key, value: value)
    }

    /// The list with each value replaced by `***`, for an error message.
    static func redacted(_ text: String) -> String {
        text.split(separator: ",", omittingEmptySubsequences: false).map { entry in
            guard let equals = entry.firstIndex(of: "=") else { return entry.isEmpty ? "" : "***" }
            return entry[..<equals] + "=***"
        }.joined(separator: ",")
    }
}
