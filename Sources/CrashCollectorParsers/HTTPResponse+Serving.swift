import CrashReporterHTTP
import CrashReporterSupport
import Foundation

/// The collector's answers: the HTTP model's `HTTPResponse` (the one the client reads), built
/// from the collector's bodies and written to the wire. `Content-Length` and `Connection` are
/// added when it is written.
extension HTTPResponse {
    package init(status: Int, headers: [(String, String)], body: Data) {
        self.init(
            status: status, reason: HTTPStatus.reason(status),
            headers: HTTPHeaders(headers.map { HTTPHeader(name: $0.0, value: $0.1) }), body: [UInt8](body))
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
        if includeBody { data.append(contentsOf: body) }
        return data
    }
}
