import CrashReporterHTTP

/// One request of the events API: the package's HTTP client's request (`url`, `method`,
/// `headers`, `body` as bytes, `timeout`), named here so that a transport can be written with
/// `import TrackingEventsAPI` alone.
public typealias HTTPRequest = CrashReporterHTTP.HTTPRequest

/// What came back: `status`, `headers` (looked up without regard to case) and `body` as bytes.
public typealias HTTPResponse = CrashReporterHTTP.HTTPResponse

/// Sends the provider's requests. Throwing means no response arrived (network error, timeout,
/// cancellation): the batch is kept and retried later. Any response, whatever its status, is
/// returned for the provider's retry rules to judge.
///
/// The default is the package's own HTTP client (`HTTPClient`, which conforms); tests, or a
/// service with an HTTP stack of its own, pass another to ``EventsAPIProvider``.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// The default transport: the async `send`, which runs the exchange on a thread of its own
/// and throws `HTTPError` when no response arrived.
extension HTTPClient: HTTPTransport {}
