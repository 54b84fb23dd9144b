import Glibc

/// The process's environment as a dictionary: the default for the settings `HTTPClient` reads
/// (proxies, `SSL_CERT_FILE`, `SSL_CERT_DIR`). Taken once, when a client is made.
public enum ProcessEnvironment {
    /// Every `NAME=value` of `environ`; for a repeated name the first wins, as `getenv` would.
    public static func current() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pair = entry.pointee {
            let text = String(cString: pair)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if result[name] == nil { result[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return result
    }
}
