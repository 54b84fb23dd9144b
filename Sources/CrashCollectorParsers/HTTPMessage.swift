import CrashReporterSupport
import Foundation

/// Header fields in arrival order. A field name is the same whatever its case (`Host`, `host`),
/// so lookups ignore case; values are kept as sent.
package struct HTTPHeaders: Sendable, Equatable {
    package private(set) var fields: [(name: String, value: String)] = []

    package init(_ fields: [(String, String)] = []) {
        for (name, value) in fields { add(name, value) }
    }

    package mutating func add(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    /// The first value of `name`, if any.
    package subscript(_ name: String) -> String? {
        fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Every value of `name`, in order.
    package func values(_ name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }

    /// Whether a comma-separated header (`Connection`) lists `token`.
    package func contains(_ name: String, token: String) -> Bool {
        values(name).contains { value in
            value.split(separator: ",").contains {
                $0.trimmingASCIIWhitespace().caseInsensitiveCompare(token) == .orderedSame
            }
        }
    }

    package static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.map(\.name) == rhs.fields.map(\.name) && lhs.fields.map(\.value) == rhs.fields.map(\.value)
    }
}

/// The part of a request before its body.
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

/// A whole request: its head and its body (the transfer coding removed, content coding kept).
package struct HTTPRequest: Sendable, Equatable {
    package var head: HTTPRequestHead
    package var body: Data

    package var method: String { head.method }
    package var path: String { head.path }
    package var headers: HTTPHeaders { head.headers }
}

/// A response; `Content-Length` and `Connection` are added when it is written.
package struct HTTPResponse: Sendable, Equatable {
    package var status: Int
    package var headers: HTTPHeaders
    package var body: Data

    package init(status: Int, headers: [(String, String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = HTTPHeaders(headers)
        self.body = body
    }

    package static func text(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Data(text.utf8))
    }

    package static func html(_ status: Int, _ html: String) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "text/html; charset=utf-8")], body: Data(html.utf8))
    }

    /// A JSON body from a JSON value.
    package static func json(_ status: Int, _ value: JSONValue, headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "application/json")] + headers,
            body: Data(JSON.serialize(value)))
    }

    /// The status line, headers and body as sent on the wire.
    package func serialized(keepAlive: Bool, includeBody: Bool = true) -> Data {
        var head = "HTTP/1.1 \(status) \(HTTPStatus.reason(status))\r\n"
        for field in headers.fields { head += "\(field.name): \(field.value)\r\n" }
        if status >= 200 && status != 204 && status != 304 { head += "Content-Length: \(body.count)\r\n" }
        head += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n"
        head += "\r\n"
        var data = Data(head.utf8)
        if includeBody { data.append(body) }
        return data
    }
}

/// Reason phrases for the statuses the collector sends.
package enum HTTPStatus {
    package static func reason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }
}
