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

// 4. A heartbeat per event loop, ticked by a task on that loop every 200 ms: a loop that stays
//    blocked (a handler that never returns, a lock that never comes back) leaves one hang
//    report with every thread once it is late by the hang timeout
//    (CRASH_REPORTER_HANG_TIMEOUT_SECONDS, 10 s by default). `kill -QUIT` writes a snapshot.
for (index, loop) in group.makeIterator().enumerated() {
    loop.execute {
        guard let beat = CrashReporter.heartbeat("event-loop-\(index)") else { return }
        loop.scheduleRepeatedTask(initialDelay: .zero, delay: .milliseconds(200)) { _ in beat.tick() }
    }
}
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
