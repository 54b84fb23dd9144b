/// One request: where, how, what. The client adds `Host`, `Content-Length` (when there is a body
/// or the method is POST, PUT or PATCH), `Connection: close` and, unless the request has its own,
/// `User-Agent`; a request that sets `Host`, `Content-Length`, `Transfer-Encoding` or
/// `Connection` itself is refused.
public struct HTTPRequest: Sendable {
    public var url: HTTPURL
    public var method: String
    /// Sent in this order.
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The whole exchange (name resolution, connect, TLS, send, the complete response) must fit
    /// in it. Name resolution counts but cannot be interrupted: a hanging resolver is bounded by
    /// its own timeout (see `HTTPClient`).
    public var timeout: Duration

    public init(
        url: HTTPURL, method: String = "GET", headers: HTTPHeaders = [:], body: [UInt8] = [],
        timeout: Duration = .seconds(30)
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}
