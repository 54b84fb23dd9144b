import ArgumentParser
import CrashReportDelivery
import CrashReportFormat
import CrashReporterSupport
import CrashSymbolication
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `crash-collector`: the command line, checked in `validate()`, then the server until SIGTERM or SIGINT.
@main
struct CrashCollector: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash-collector",
        abstract: "A local receiver for crash reports, Sentry envelopes and analytics events.",
        usage: "crash-collector [<options>]",
        discussion: """
            For development, demos and tests. Serves HTTP/1.1 on loopback by default, prints \
            'crash-collector listening on http://ADDRESS:PORT' when ready, and stops on SIGTERM or \
            SIGINT. See docs/collector.md.

            ENDPOINTS:
              POST /api/reports, /            a crash report file (gzip), X-Crash-Report-ID
              POST /api/<project>/envelope/   a Sentry envelope, X-Sentry-Auth
              POST /v1/events                 analytics events, X-Write-Key
              POST /v1/logs                   OTLP logs, protobuf or JSON
              POST /v2/                       TelemetryDeck signals (a stand-in)
              POST /batch/                    PostHog capture batches (a stand-in), api_key
              GET  /                          crash groups, their charts, event counts (HTML)
              GET  /groups/<key>, /reports/<id>[?format=text|json]
              GET  /api/reports, /api/groups, /api/events, /api/logs

            ENVIRONMENT:
              CRASH_COLLECTOR_FAIL_NEXT="N STATUS"
                                      The same as --fail-next N STATUS.
              CRASH_REPORTER_DEBUG_DIRS=DIR:DIR
                                      More debug directories, searched after --debug-dir.
              DEBUGINFOD_URLS="URL URL"
                                      debuginfod servers, asked after the debug directories
                                      (also DEBUGINFOD_TIMEOUT, DEBUGINFOD_MAXSIZE,
                                      DEBUGINFOD_CACHE_PATH, as elfutils reads them).
              CRASH_REPORTER_DEPENDENCY_PATHS=PREFIX:PREFIX
                                      Source path prefixes of dependencies (besides package
                                      checkouts), whose frames are not the service's own.
            """,
        version: "crash-collector 0.1.0")

    @Option(help: ArgumentHelp("IPv4 address to listen on, or localhost.", valueName: "address"))
    var host = Configuration().host

    @Option(help: "Port to listen on; 0 picks a free one.")
    var port = Configuration().port

    @Option(help: ArgumentHelp("Where reports and events are stored.", valueName: "dir"))
    var data = Configuration().dataDirectory

    @Option(
        help: ArgumentHelp("sentry_key that POST /api/<project>/envelope/ requires (default: any).", valueName: "key"))
    var sentryKey: String?

    @Option(
        help: ArgumentHelp(
            "X-Write-Key that POST /v1/events accepts, and PostHog's api_key for POST /batch/; repeat for "
                + "several (default: any non-empty key).",
            valueName: "key"))
    var eventsWriteKey: [String] = []

    @Option(
        help: ArgumentHelp(
            "Largest report or envelope body, before and after gzip; /v1/events bodies are at most 1 MiB.",
            valueName: "bytes"))
    var maxBody = Configuration().maxBodyBytes

    @Option(
        help: ArgumentHelp(
            "Time a request may take to arrive, from its first byte to its body's end.", valueName: "seconds"))
    var readTimeout = Configuration().readTimeoutSeconds

    @Option(
        help: ArgumentHelp(
            "Time a client may take to send a request's head, and an idle connection may stay open.",
            valueName: "seconds"))
    var headerTimeout = Configuration().headerTimeoutSeconds

    @Option(help: ArgumentHelp("Connections served at once, one thread each; more get 503.", valueName: "n"))
    var maxConnections = Configuration().maxConnections

    @Option(
        help: ArgumentHelp(
            "Request bytes held in memory by all connections together; a request past it gets 503.",
            valueName: "bytes"))
    var maxBuffered = Configuration().maxBufferedBytes

    @Option(help: ArgumentHelp("Events per minute per write key.", valueName: "n"))
    var eventsRatePerKey = Configuration().eventsPerMinutePerKey

    @Option(help: ArgumentHelp("Events per minute per anonymous_id.", valueName: "n"))
    var eventsRatePerInstall = Configuration().eventsPerMinutePerInstall

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Answer the next N uploads with STATUS, storing nothing (a test hook; also POST /control/fail-next).",
            valueName: "n status"))
    var failNext: [String] = []

    @Option(help: ArgumentHelp("Retry-After sent with an injected 429 or 503.", valueName: "seconds"))
    var retryAfter = Configuration().retryAfterSeconds

    @Option(
        name: .customLong("debug-dir"),
        help: ArgumentHelp(
            "A directory of debug files (DIR/.build-id/ab/cdef….debug or DIR/NAME.debug) to name the frames of "
                + "stripped binaries; repeatable.",
            valueName: "dir"))
    var debugDirectories: [String] = []

    func validate() throws {
        _ = try configuration(environment: ProcessInfo.processInfo.environment)
    }

    /// The server's settings from the options and `CRASH_COLLECTOR_FAIL_NEXT`, each checked.
    func configuration(environment: [String: String]) throws(ValidationError) -> Configuration {
        var configuration = Configuration()
        guard Listener.ipv4Address(host) != nil else {
            throw ValidationError("--host needs an IPv4 address or localhost, not '\(host)'")
        }
        configuration.host = host
        configuration.port = try Self.check(port, "--port", 0...65535)
        guard !data.isEmpty else { throw ValidationError("--data needs a directory") }
        configuration.dataDirectory = data
        configuration.sentryKey = sentryKey
        if eventsWriteKey.contains("") { throw ValidationError("--events-write-key needs a key") }
        configuration.eventsWriteKeys = eventsWriteKey
        configuration.maxBodyBytes = try Self.check(maxBody, "--max-body", 1...(1 << 30))
        guard readTimeout > 0, readTimeout <= 3600 else {
            throw ValidationError("--read-timeout needs seconds in (0, 3600], not \(readTimeout)")
        }
        configuration.readTimeoutSeconds = readTimeout
        guard headerTimeout > 0, headerTimeout <= 3600 else {
            throw ValidationError("--header-timeout needs seconds in (0, 3600], not \(headerTimeout)")
        }
        configuration.headerTimeoutSeconds = headerTimeout
        configuration.maxConnections = try Self.check(maxConnections, "--max-connections", 1...10_000)
        configuration.maxBufferedBytes = try Self.check(maxBuffered, "--max-buffered", 1 << 20...(1 << 40))
        configuration.eventsPerMinutePerKey = try Self.check(eventsRatePerKey, "--events-rate-per-key", 1...10_000_000)
        configuration.eventsPerMinutePerInstall = try Self.check(
            eventsRatePerInstall, "--events-rate-per-install", 1...10_000_000)
        configuration.retryAfterSeconds = try Self.check(retryAfter, "--retry-after", 0...86400)
        if !failNext.isEmpty {
            guard failNext.count == 2, let plan = FaultInjection.parse(count: failNext[0], status: failNext[1]) else {
                throw ValidationError(
                    "--fail-next needs a count and a status in 100...599, not '\(failNext.joined(separator: " "))'")
            }
            configuration.failNext = plan
        } else if let text = EnvironmentSettings(environment).raw(.collectorFailNext) {
            let parts = text.split(separator: " ").map(String.init)
            guard parts.count == 2, let plan = FaultInjection.parse(count: parts[0], status: parts[1]) else {
                let name = EnvironmentVariable.collectorFailNext.name
                throw ValidationError("\(name) must be \"N STATUS\", not '\(text)'")
            }
            configuration.failNext = plan
        }
        configuration.failNext?.retryAfter = configuration.retryAfterSeconds
        if debugDirectories.contains("") { throw ValidationError("--debug-dir needs a directory") }
        configuration.debugDirectories = DebugDirectories(debugDirectories, environment: environment)
        do {
            configuration.debugDirectories.debuginfod = try Debuginfod(
                environment: environment, fetcher: HTTPDebugFileFetcher(environment: environment))
        } catch {
            throw ValidationError(error.description)
        }
        configuration.dependencyPaths = DependencyPaths(environment: environment)
        return configuration
    }

    private static func check(_ value: Int, _ option: String, _ range: ClosedRange<Int>) throws(ValidationError)
        -> Int
    {
        guard range.contains(value) else {
            throw ValidationError(
                "\(option) needs an integer in \(range.lowerBound)...\(range.upperBound), not \(value)")
        }
        return value
    }

    func run() throws {
        let status = Self.serve(try configuration(environment: ProcessInfo.processInfo.environment))
        if status != 0 { throw ExitCode(status) }
    }

    static func serve(_ configuration: Configuration) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        Listener.raiseDescriptorLimit(toServe: configuration.maxConnections)
        let server: Server
        do {
            let collector = try Collector(configuration: configuration)
            server = try Server(collector: collector)
        } catch {
            Log.error("\(error)")
            return 1
        }
        // SIGTERM and SIGINT are taken from their default action and delivered to a queue,
        // which asks the accept loop to stop; open requests are finished first.
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGTERM, SIGINT] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { server.stop() }
            source.resume()
            sources.append(source)
        }
        // One line, written unbuffered: tests and scripts wait for it to learn the port.
        let ready = "crash-collector listening on http://\(configuration.host):\(server.port)\n"
        try? FileHandle.standardOutput.write(contentsOf: Data(ready.utf8))
        server.run()
        Log.info("stopped")
        _ = sources
        return 0
    }
}
