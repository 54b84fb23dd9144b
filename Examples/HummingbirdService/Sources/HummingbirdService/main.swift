import CrashReporter
import CrashReporterLogging
import Hummingbird
import Logging
import NIOCore

// 1. The crash reporter, first: its handlers are armed before anything else runs, and every
//    thread started from now on (NIO's event loops, the concurrency pool's threads) gets a
//    stack to report an overflow on. Where reports go comes from the environment:
//    CRASH_REPORTER_DIR, CRASH_REPORTER_URL or SENTRY_DSN (docs/configuration.md). A report left
//    by a crash is delivered now, in the background.
try CrashReporter.start(Options(appName: "hummingbird-service", appVersion: "1.0.0"))

// 2. swift-log, with every line at `info` or above also kept as a breadcrumb (Hummingbird's own
//    lines too), and the reporter's own diagnostics logged.
LoggingSystem.bootstrapWithCrashBreadcrumbs(StreamLogHandler.standardError)
let logger = Logger(label: "hummingbird-service")

// 3. Hummingbird on loopback: `hummingbird-service [PORT]` (0, the default, picks a free port).
//    Its request handlers run as tasks on the concurrency pool.
let port = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 0
let app = Application(
    router: makeRouter(logger: logger),
    configuration: .init(address: .hostname("127.0.0.1", port: port)),
    onServerRunning: { channel in
        // Scripts and tests wait for this line (on standard error, as every log line here).
        logger.info("listening on http://127.0.0.1:\(channel.localAddress?.port ?? 0)")
    }
)
try await app.runService()
