/// Everything the command line sets.
struct Configuration: Sendable, Equatable {
    var host = "127.0.0.1"
    /// 0 picks a free port (printed when listening).
    var port = 8089
    var dataDirectory = "crash-collector-data"
    /// The key `POST /api/<project>/envelope/` requires; nil accepts any.
    var sentryKey: String?
    /// The keys `POST /v1/events` accepts; empty accepts any non-empty key.
    var eventsWriteKeys: [String] = []
    /// The largest request body (and decoded body) for the report and envelope endpoints.
    var maxBodyBytes = 16 << 20
    /// How long a request may take to arrive, and an idle keep-alive connection may stay open.
    var readTimeoutSeconds = 10.0
    var maxConnections = 64
    var eventsPerMinutePerKey = 10_000
    var eventsPerMinutePerInstall = 300
    var failNext: FaultInjection.Plan?
    /// `Retry-After` for failures injected with status 429 or 503.
    var retryAfterSeconds = 1
}
