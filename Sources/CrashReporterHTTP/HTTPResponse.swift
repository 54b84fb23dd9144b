/// The final (non-1xx) response, whatever its status: 3xx included, since the client follows no
/// redirects.
public struct HTTPResponse: Sendable, Hashable {
    public var status: Int
    /// The reason phrase of the status line (may be empty).
    public var reason: String
    /// In the order received, names as the server wrote them; look-ups ignore case.
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: Int, reason: String = "", headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
    }
}
