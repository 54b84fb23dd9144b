/// Turns a request into the bytes sent: the request line, `Host`, the caller's headers in order,
/// `User-Agent`, `Content-Length`, `Connection: close`, then the body. Everything is checked
/// first, so a header value with a line break can never smuggle a second request.
enum RequestEncoder {
    /// Headers the client writes itself; a request that sets one is refused.
    static let reservedHeaders = ["Host", "Content-Length", "Transfer-Encoding", "Connection"]

    /// `absoluteForm` writes the full URL on the request line, as a proxy wants for http.
    static func encode(_ request: HTTPRequest, userAgent: String, absoluteForm: Bool) throws(HTTPError) -> [UInt8] {
        try validate(request, userAgent: userAgent)
        let target = absoluteForm ? request.url.description : request.url.pathAndQuery
        var head = "\(request.method) \(target) HTTP/1.1\r\nHost: \(request.url.authority)\r\n"
        for field in request.headers { head += "\(field.name): \(field.value)\r\n" }
        if !request.headers.contains("User-Agent") { head += "User-Agent: \(userAgent)\r\n" }
        if !request.body.isEmpty || ["POST", "PUT", "PATCH"].contains(request.method) {
            head += "Content-Length: \(request.body.count)\r\n"
        }
        head += "Connection: close\r\n\r\n"
        var bytes = Array(head.utf8)
        bytes.append(contentsOf: request.body)
        return bytes
    }

    /// The `CONNECT` request that asks a proxy for a tunnel to `url`'s host and port.
    static func connect(to url: HTTPURL, userAgent: String) throws(HTTPError) -> [UInt8] {
        try validateValue(userAgent, of: "User-Agent")
        return Array(
            "CONNECT \(url.hostAndPort) HTTP/1.1\r\nHost: \(url.hostAndPort)\r\nUser-Agent: \(userAgent)\r\n\r\n".utf8)
    }

    private static func validate(_ request: HTTPRequest, userAgent: String) throws(HTTPError) {
        guard !request.method.isEmpty, request.method.utf8.allSatisfy(\.isHTTPTokenCharacter) else {
            throw .invalidRequest("'\(request.method)' is not a method name")
        }
        try validateValue(userAgent, of: "User-Agent")
        for field in request.headers {
            guard !field.name.isEmpty, field.name.utf8.allSatisfy(\.isHTTPTokenCharacter) else {
                throw .invalidRequest("'\(field.name)' is not a header name")
            }
            if let reserved = reservedHeaders.first(where: { $0.equalsIgnoringASCIICase(field.name) }) {
                throw .invalidRequest("\(reserved) is set by the client")
            }
            try validateValue(field.value, of: field.name)
        }
    }

    /// No CR, LF or NUL: any of them would end the field early.
    private static func validateValue(_ value: String, of name: String) throws(HTTPError) {
        if value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) {
            throw .invalidRequest("a line break or NUL in the value of \(name)")
        }
    }
}
