/// Why a request got no response. Every case reads as one line in a log (`description`); none
/// holds the request's body or headers, so logging one never leaks a key.
///
/// A response with any status, 4xx and 5xx included, is not an error: it comes back as an
/// `HTTPResponse` for the caller's retry rules to judge.
public enum HTTPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL cannot be used: not http or https, a user name or password in it, no host, a bad
    /// port.
    case invalidURL(String)
    /// The request cannot be sent as given: a bad method or header name, a line break in a header
    /// value, or a header the client writes itself.
    case invalidRequest(String)
    /// A proxy environment variable names something this client cannot use.
    case invalidProxy(String)
    /// The host name did not resolve.
    case dnsFailure(host: String, reason: String)
    /// Every address of the host refused the connection: nothing listens there.
    case connectionRefused(host: String, port: Int)
    /// The connection could not be made for another reason (unreachable network, no route).
    case connectionFailed(host: String, port: Int, reason: String)
    /// The connection broke during the exchange (reset, closed while sending).
    case connectionLost(String)
    /// The request's deadline passed; the text says what was being waited for.
    case timeout(String)
    /// https was asked for but OpenSSL's libssl cannot be loaded; the text names the package.
    case tlsLibraryMissing(String)
    /// The TLS handshake or a TLS read or write failed, certificate verification included.
    case tlsFailure(String)
    /// The server's answer is not well-formed HTTP/1.1.
    case badResponse(String)
    /// The response body is larger than the client's limit.
    case responseTooLarge(limit: Int)
    /// The proxy refused or broke the tunnel it was asked for.
    case proxyFailure(String)
    /// The calling task was cancelled.
    case cancelled

    public var description: String {
        switch self {
        case .invalidURL(let reason): "invalid URL: \(reason)"
        case .invalidRequest(let reason): "invalid request: \(reason)"
        case .invalidProxy(let reason): "unusable proxy setting: \(reason)"
        case .dnsFailure(let host, let reason): "cannot resolve \(host): \(reason)"
        case .connectionRefused(let host, let port): "connection refused by \(host) port \(port)"
        case .connectionFailed(let host, let port, let reason): "cannot connect to \(host) port \(port): \(reason)"
        case .connectionLost(let reason): "connection lost: \(reason)"
        case .timeout(let phase): "timed out \(phase)"
        case .tlsLibraryMissing(let reason): "TLS unavailable: \(reason)"
        case .tlsFailure(let reason): reason
        case .badResponse(let reason): "bad response: \(reason)"
        case .responseTooLarge(let limit): "response larger than the limit of \(limit) bytes"
        case .proxyFailure(let reason): "proxy failure: \(reason)"
        case .cancelled: "cancelled"
        }
    }
}
