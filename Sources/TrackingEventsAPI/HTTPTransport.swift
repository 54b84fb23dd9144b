// The HTTP message model and the client are declared once, in CrashReporterHTTP. They are not
// re-exported: their names (`HTTPRequest`, `HTTPResponse`, `HTTPHeaders`, `HTTPError`,
// `HTTPClient`) are also a server stack's (Hummingbird's `HTTPError`, swift-http-types',
// swift-nio's, AsyncHTTPClient's), and a service's file imports both. A transport names them
// `HTTPTransport.Request` and `.Response`.
import CrashReporterHTTP

/// Sends the provider's requests. Throwing means no response arrived (network error, timeout,
/// cancellation): the batch is kept and retried later. Any response, whatever its status, is
/// returned for the provider's retry rules to judge.
///
/// A request carries `url`, `method`, `headers`, `body` as bytes and `timeout`; a response
/// `status`, `headers` (looked up without regard to case) and `body` as bytes:
///
/// ```swift
/// struct MyTransport: HTTPTransport {
///     func send(_ request: Request) async throws -> Response {
///         Response(status: 200, headers: ["Content-Type": "application/json"], body: Array("{}".utf8))
///     }
/// }
/// ```
///
/// The default is the package's own HTTP client, which conforms; tests, or a service with an
/// HTTP stack of its own, pass another to ``EventsAPIProvider``.
public protocol HTTPTransport: Sendable {
    /// What the provider sends.
    typealias Request = HTTPRequest
    /// What the server answered.
    typealias Response = HTTPResponse

    /// Sends `request` and returns the server's answer, whatever its status; throws only when no
    /// answer arrived (connection refused, timeout, TLS failure).
    func send(_ request: Request) async throws -> Response
}

/// The default transport: the async `send`, which runs the exchange on a thread of its own
/// and throws `HTTPError` when no response arrived.
extension HTTPClient: HTTPTransport {}
