import CrashReporter
import CrashReporterLogging
import Logging
import NIOCore
import NIOPosix

// 1. The crash reporter, first: its handlers are armed before anything else runs, and every
//    thread started from now on (NIO's event loops too) gets a stack to report an overflow on.
//    Where reports go comes from the environment: CRASH_REPORTER_DIR, CRASH_REPORTER_URL or
//    SENTRY_DSN (docs/configuration.md). A report left by a crash is delivered now, in the
//    background.
try CrashReporter.start(Options(appName: "nio-service", appVersion: "1.0.0"))

// 2. swift-log, with every line at `info` or above also kept as a breadcrumb, and the
//    reporter's own diagnostics (a report it could not deliver, …) logged too.
LoggingSystem.bootstrapWithCrashBreadcrumbs(StreamLogHandler.standardError)
let logger = Logger(label: "nio-service")

// 3. An HTTP/1.1 server on loopback: `nio-service [PORT]` (0, the default, picks a free port).
let port = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 0
let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
let server = try ServerBootstrap(group: group)
    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
    .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.configureHTTPServerPipeline()
            try channel.pipeline.syncOperations.addHandler(RequestHandler(logger: logger))
        }
    }
    .bind(host: "127.0.0.1", port: port)
    .wait()

// Scripts and tests wait for this line (on standard error, as every log line here).
logger.info("listening on http://127.0.0.1:\(server.localAddress?.port ?? 0)")
try server.closeFuture.wait()
