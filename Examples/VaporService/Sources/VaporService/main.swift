import CrashReporter
import CrashReporterLogging
import Logging
import Vapor

// 1. The crash reporter, first: its handlers are armed before anything else runs, and every
//    thread started from now on (NIO's event loops, the concurrency pool's threads) gets a
//    stack to report an overflow on. Where reports go comes from the environment:
//    CRASH_REPORTER_DIR, CRASH_REPORTER_URL or SENTRY_DSN (docs/configuration.md). A report left
//    by a crash is delivered now, in the background.
try CrashReporter.start(Options(appName: "vapor-service", appVersion: "1.0.0"))

// 2. swift-log, with every line at `info` or above also kept as a breadcrumb (Vapor's own lines
//    too), and the reporter's own diagnostics logged. Vapor's `LoggingSystem.bootstrap(from:)`
//    is not called: this bootstrap takes its place.
LoggingSystem.bootstrapWithCrashBreadcrumbs(StreamLogHandler.standardError)
let logger = Logger(label: "vapor-service")

// 3. Vapor on loopback: `vapor-service [PORT]` (0, the default, picks a free port). Vapor reads
//    its command from the arguments; it gets none, so it serves (its default command).
let port = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 0
var environment = Environment.production
environment.arguments = [CommandLine.arguments[0]]
let app = try await Application.make(environment)
app.http.server.configuration.hostname = "127.0.0.1"
app.http.server.configuration.port = port

// 4. Delivery stops when Vapor shuts down (SIGTERM or SIGINT: Vapor's serve command handles
//    both), after the report it is sending.
app.lifecycle.use(CrashReportDelivery())

// 5. Vapor's default middleware logs each request's concrete path (RouteLoggingMiddleware, at
//    `info`) and each error with the concrete URL and User-Agent (ErrorMiddleware.default): both
//    would be breadcrumbs. In their place: a breadcrumb per request naming its route's pattern,
//    first, and an error middleware that logs the pattern too.
app.middleware = Middlewares()
app.middleware.use(RouteBreadcrumbMiddleware())
app.middleware.use(ErrorMiddleware.byRoute(environment: app.environment, logger: logger))
registerRoutes(app, logger: logger)

do {
    try await app.startup()
    // Scripts and tests wait for this line (on standard error, as every log line here).
    logger.info("listening on http://127.0.0.1:\(app.http.server.shared.localAddress?.port ?? 0)")
    try await app.running?.onStop.get()
} catch {
    logger.error("stopped: \(type(of: error))")
    try await app.asyncShutdown()
    exit(1)
}
try await app.asyncShutdown()
