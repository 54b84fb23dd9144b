import CrashReporterHTTP
import Foundation

/// The part of a request before its body, as the collector reads it off the wire. Its header
/// fields are the HTTP model's `HTTPHeaders` (CrashReporterHTTP), which the client uses too.
package struct HTTPRequestHead: Sendable, Equatable {
    package var method: String
    /// The request target as sent (`/api/reports?x=1`).
    package var target: String
    /// `1` for HTTP/1.1, `0` for HTTP/1.0.
    package var minorVersion: Int
    package var headers: HTTPHeaders

    /// The path of the target, without the query; an absolute-form target is reduced to its path.
    package var path: String {
        var rest = Substring(target)
        if let scheme = rest.range(of: "://"), rest.first != "/" {
            rest = rest[scheme.upperBound...]
            rest = rest.firstIndex(of: "/").map { rest[$0...] } ?? "/"
        }
        if let mark = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<mark] }
        return String(rest)
    }

    /// The query parameters, percent-decoded (`+` is a space, as in forms).
    package var query: [String: String] {
        guard let mark = target.firstIndex(of: "?") else { return [:] }
        var result: [String: String] = [:]
        let query = target[target.index(after: mark)...].prefix { $0 != "#" }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            let name = decode(parts[0])
            if result[name] == nil { result[name] = parts.count > 1 ? decode(parts[1]) : "" }
        }
        return result
    }

    /// Whether the connection stays open after this request: never after `Connection: close`;
    /// in HTTP/1.0 only when the client asked with `Connection: keep-alive`; in HTTP/1.1 otherwise
    /// always.
    package var keepAlive: Bool {
        if headers.contains("Connection", token: "close") { return false }
        if minorVersion == 0 { return headers.contains("Connection", token: "keep-alive") }
        return true
    }

    /// Whether the client waits for `100 Continue` before sending its body.
    package var expectsContinue: Bool {
        minorVersion >= 1 && headers["Expect"]?.caseInsensitiveCompare("100-continue") == .orderedSame
    }
}
