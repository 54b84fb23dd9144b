import CrashReportFormat
import CrashSymbolication

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
    /// How long a request may take to arrive, from its first byte to the end of its body.
    var readTimeoutSeconds = 10.0
    /// How long a connection may take to send a whole request head, counted from when the
    /// collector starts waiting for it (the connection opened, or the last response was sent);
    /// an idle keep-alive connection is closed after it too.
    var headerTimeoutSeconds = 5.0
    /// Connections served at once, each on a thread of its own; more are refused with 503.
    var maxConnections = 1024
    /// Request bytes all connections together may hold in memory (heads and bodies being read);
    /// a request that would pass it is refused with 503.
    var maxBufferedBytes = 256 << 20
    var eventsPerMinutePerKey = 10_000
    var eventsPerMinutePerInstall = 300
    var failNext: FaultInjection.Plan?
    /// `Retry-After` for failures injected with status 429 or 503.
    var retryAfterSeconds = 1
    /// Where the debug files of stripped binaries are (`--debug-dir`, `CRASH_REPORTER_DEBUG_DIRS`).
    var debugDirectories = DebugDirectories()
    /// Where the dependencies' sources are (`CRASH_REPORTER_DEPENDENCY_PATHS`): their frames are
    /// not highlighted as the service's own on the report page.
    var dependencyPaths = DependencyPaths()
}
