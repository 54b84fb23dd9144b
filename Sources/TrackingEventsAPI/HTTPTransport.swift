// The HTTP message model (`HTTPRequest`, `HTTPResponse`, `HTTPHeaders`) and the client are
// declared once, in CrashReporterHTTP, and re-exported here: a transport is written with
// `import TrackingEventsAPI` alone, and names the same types the client and the collector use.
@_exported import CrashReporterHTTP

/// Sends the provider's requests. Throwing means no response arrived (network error, timeout,
/// cancellation): the batch is kept and retried later. Any response, whatever its status, is
/// returned for the provider's retry rules to judge.
///
/// A request carries `url`, `method`, `headers`, `body` as bytes and `timeout`; a response
/// `status`, `headers` (looked up without regard to case) and `body` as bytes.
///
/// The default is the package's own HTTP client (`HTTPClient`, which conforms); tests, or a
/// service with an HTTP stack of its own, pass another to ``EventsAPIProvider``.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// The default transport: the async `send`, which runs the exchange on a thread of its own
/// and throws `HTTPError` when no response arrived.
extension HTTPClient: HTTPTransport {}
