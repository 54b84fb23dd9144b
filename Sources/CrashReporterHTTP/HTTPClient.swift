import CrashReporterSupport

/// A small HTTP/1.1 client for crash delivery and the events API, free of Foundation: plain
/// sockets for http, the system's OpenSSL (loaded with dlopen on the first https request) for
/// https.
///
/// - One request per connection (`Connection: close`); nothing is pooled or kept alive.
/// - Redirects are not followed: a 3xx comes back as the response, for the caller to judge.
///   Interim 1xx responses are skipped.
/// - One deadline, `HTTPRequest.timeout`, bounds the whole exchange: name resolution, connecting
///   (each of the host's addresses tried in turn), TLS, sending and reading the whole response.
///   Only name resolution (`getaddrinfo`) cannot be interrupted; it ends by the resolver's own
///   timeout (resolv.conf), and the request then fails if the deadline has passed.
/// - The response body may be at most `maxResponseBytes` (1 MiB unless told otherwise) and the
///   headers 64 KiB, so a hostile or broken server cannot make the service allocate without end.
/// - https verifies the certificate chain against the system's trust store (`SSL_CERT_FILE` and
///   `SSL_CERT_DIR` honoured) and the host name or IP address; TLS 1.2 at least.
/// - Proxies come from `http_proxy`, `https_proxy` and `no_proxy` (either case), as curl reads
///   them; only http:// proxies, with a CONNECT tunnel for https.
/// - SIGPIPE never reaches the service: plain sockets write with `MSG_NOSIGNAL`, and TLS writes
///   hold SIGPIPE back on the calling thread.
public struct HTTPClient: Sendable {
    /// 1 MiB.
    public static let defaultMaxResponseBytes = 1 << 20

    /// Sent as `User-Agent` unless a request has its own.
    public var userAgent: String
    /// The largest response body accepted; a larger one fails with `responseTooLarge`.
    public var maxResponseBytes: Int
    let proxies: ProxyConfiguration
    let trust: TrustStore

    /// A client whose proxies and trust store come from `environment` (the process's by
    /// default): `http_proxy`, `https_proxy`, `no_proxy` and their uppercase forms,
    /// `SSL_CERT_FILE` and `SSL_CERT_DIR`.
    public init(
        userAgent: String, maxResponseBytes: Int = defaultMaxResponseBytes,
        environment: [String: String]? = nil
    ) {
        let environment = environment ?? ProcessEnvironment.current()
        self.userAgent = userAgent
        self.maxResponseBytes = maxResponseBytes
        self.proxies = ProxyConfiguration(environment: environment)
        self.trust = TrustStore(environment: environment)
    }

    /// Sends `request` and blocks the calling thread until the response or a failure. For
    /// threads of the service's own (the crash delivery worker); async code uses the async
    /// `send`, which keeps off the cooperative pool.
    public func send(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        try exchange(request, cancellation: nil).run()
    }

    /// Sends `request` from async code: the exchange runs on a thread started for it (never on
    /// the cooperative pool), and the caller is resumed from there. Cancelling the calling task
    /// ends the exchange at its next wait with `HTTPError.cancelled` (name resolution, which
    /// cannot be interrupted, finishes first).
    public func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        if Task.isCancelled { throw .cancelled }
        guard let cancellation = CancellationSignal() else {
            throw .connectionFailed(host: request.url.host, port: request.url.port, reason: "no file descriptor left")
        }
        let exchange = exchange(request, cancellation: cancellation)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<HTTPResponse, HTTPError>, Never>) in
                do {
                    // A thread of its own, so an async caller never blocks a thread of Swift's
                    // cooperative pool; it ends with the request.
                    try DetachedThread.start(name: "http-request") {
                        continuation.resume(returning: Result { () throws(HTTPError) in try exchange.run() })
                    }
                } catch {
                    continuation.resume(
                        returning: .failure(
                            .connectionFailed(
                                host: request.url.host, port: request.url.port, reason: "\(error)")))
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try result.get()
    }

    private func exchange(_ request: HTTPRequest, cancellation: CancellationSignal?) -> Exchange {
        Exchange(
            request: request, userAgent: userAgent, maxResponseBytes: maxResponseBytes, proxies: proxies,
            trust: trust, cancellation: cancellation)
    }
}
