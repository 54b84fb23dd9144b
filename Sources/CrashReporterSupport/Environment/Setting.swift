/// The one set of parsers for configuration values, used by every reader of environment
/// variables and options (the service at start, `crashreport upload`, the collector), so
/// that they accept and refuse the same values with the same message.
///
/// Each takes the raw text (`nil` when the variable is not set) and the name to blame. A value
/// that is missing, empty or only whitespace is `nil` (not set: the default applies); any other
/// value is trimmed of ASCII whitespace and must follow the rule, or a ``SettingError`` names
/// the variable, the rule and the value.
package enum Setting {
    /// The trimmed text; `nil` when missing or blank.
    package static func text(_ raw: String?) -> String? {
        guard let raw else { return nil }
        let trimmed = raw.trimmingASCIIWhitespace()
        return trimmed.isEmpty ? nil : String(trimmed)
    }

    /// A number of seconds, zero or more: `30`, `0.5`, `1e3`. Negative numbers, NaN and
    /// infinities are refused (a negative delay is a mistake, not "no delay").
    package static func seconds(_ raw: String?, name: String) throws(SettingError) -> Double? {
        guard let text = text(raw) else { return nil }
        let isDecimal = text.utf8.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-")
        }
        guard isDecimal, let value = Double(text) else {
            throw SettingError(name: name, value: text, rule: "be a number of seconds, zero or more")
        }
        return try seconds(value, name: name, given: text)
    }

    /// The same rule for a value given in code (an option), so that code and environment agree.
    package static func seconds(_ value: Double, name: String) throws(SettingError) -> Double {
        try seconds(value, name: name, given: String(value))
    }

    private static func seconds(_ value: Double, name: String, given: String) throws(SettingError) -> Double {
        guard value.isFinite, value >= 0 else {
            throw SettingError(name: name, value: given, rule: "be a number of seconds, zero or more")
        }
        return value
    }

    /// A whole number of 1 or more, in decimal digits (`+5`, `5.0` and `0x10` are refused).
    package static func positiveInteger(_ raw: String?, name: String) throws(SettingError) -> Int? {
        guard let text = text(raw) else { return nil }
        guard text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let value = Int(text), value >= 1
        else { throw SettingError(name: name, value: text, rule: "be a whole number, 1 or more") }
        return value
    }

    /// A whole number of 0 or more, in decimal digits (a count where 0 turns something off).
    package static func count(_ raw: String?, name: String) throws(SettingError) -> Int? {
        guard let text = text(raw) else { return nil }
        guard text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let value = Int(text)
        else { throw SettingError(name: name, value: text, rule: "be a whole number, 0 or more") }
        return value
    }

    /// `1`, `true`, `yes`, `on` or `0`, `false`, `no`, `off`, in any case.
    package static func boolean(_ raw: String?, name: String) throws(SettingError) -> Bool? {
        guard let text = text(raw) else { return nil }
        switch text.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw SettingError(name: name, value: text, rule: "be one of 1, true, yes, on, 0, false, no, off")
        }
    }

    /// An absolute `http://` or `https://` URL with a host (scheme in any case), an optional
    /// port of 1–65535, and no spaces or control characters. Returned trimmed, otherwise as
    /// given.
    package static func httpURL(_ raw: String?, name: String) throws(SettingError) -> String? {
        guard let text = text(raw) else { return nil }
        guard isHTTPURL(text) else { throw SettingError(name: name, value: text, rule: "be an http or https URL") }
        return text
    }

    private static func isHTTPURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        let schemeLength: Int
        if lowered.hasPrefix("http://") {
            schemeLength = 7
        } else if lowered.hasPrefix("https://") {
            schemeLength = 8
        } else {
            return false
        }
        guard text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else { return false }
        let rest = text.dropFirst(schemeLength)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        var host = hostAndPort[...]
        var port: Substring?
        if host.hasPrefix("[") {  // an IPv6 literal
            guard let close = host.firstIndex(of: "]") else { return false }
            let after = host[host.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return false }
                port = after.dropFirst()
            }
            host = host[...close]
        } else if let colon = host.lastIndex(of: ":") {
            port = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard host.count > (host.hasPrefix("[") ? 2 : 0) else { return false }
        if let port {
            guard !port.isEmpty, port.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                let number = Int(port), (1...65535).contains(number)
            else { return false }
        }
        return true
    }
}
