import ArgumentParser
import CrashReportDelivery
import CrashReporterSupport
import CrashSymbolication

/// Where and how `upload` and `watch` deliver: `--url`/`--dsn` and the crash-loop cap and
/// retention bounds, each standing in for its environment variable (docs/crash-loops.md).
struct DeliveryArguments: ParsableArguments {
    @Option(help: .defaulting(to: .uploadURL, "Plain HTTP endpoint", valueName: "url"))
    var url: String?

    @Option(help: .defaulting(to: .sentryDSN, "Sentry DSN", valueName: "dsn"))
    var dsn: String?

    @OptionGroup var debug: DebugDirectoryArguments

    @Option(
        help: .defaulting(
            to: .otlpLogsEndpoint, "OpenTelemetry logs endpoint, used as is",
            else: "\(EnvironmentVariable.otlpEndpoint.name) with /v1/logs", valueName: "url"))
    var otlpEndpoint: String?

    @Option(
        help: .defaulting(
            to: .capCount, "Full reports of one signature sent per window, 0 for no cap",
            else: "\(ConfigurationDefaults.capCount)", valueName: "n"))
    var capCount: Int?

    @Option(
        help: .defaulting(
            to: .capWindowSeconds, "The cap's window in seconds",
            else: "\(ConfigurationDefaults.capWindow.components.seconds)", valueName: "seconds"))
    var capWindow: Double?

    @Option(
        help: .defaulting(
            to: .maxPendingReports, "Unsent reports kept in pending/ and in withheld/ each, 0 for no bound",
            else: "\(ConfigurationDefaults.maxPendingReports)", valueName: "n"))
    var maxPendingReports: Int?

    @Option(
        help: .defaulting(
            to: .maxPendingBytes, "Their bytes in each folder, 0 for no bound",
            else: "\(ConfigurationDefaults.maxPendingBytes)", valueName: "bytes"))
    var maxPendingBytes: Int?

    @Option(
        help: .defaulting(
            to: .keepDays, "Days delivered/, rejected/ and withheld/ keep a report, 0 for no bound",
            else: "\(Int(ConfigurationDefaults.retention.inDays))",
            valueName: "days"))
    var keepDays: Double?

    func validate() throws {
        if [url, dsn, otlpEndpoint].compactMap({ $0 }).count > 1 {
            throw ValidationError("give one of --url, --dsn and --otlp-endpoint")
        }
    }

    /// The delivery settings, read as the service reads them (`DeliveryConfiguration`), with
    /// `--dsn`, `--url` or `--otlp-endpoint` standing in for `SENTRY_DSN`, `CRASH_REPORTER_URL`
    /// and the OTLP endpoint variables alike: what the command line names is where this run
    /// delivers (the OTLP headers, protocol and resource still come from their variables).
    func configuration(environment: [String: String]) throws(ToolFailure) -> DeliveryConfiguration {
        let givenOnCommandLine = dsn != nil || url != nil || otlpEndpoint != nil
        do {
            return try DeliveryConfiguration(
                environment: environment,
                sentryDSN: givenOnCommandLine ? .init(dsn, name: "--dsn") : nil,
                uploadURL: givenOnCommandLine ? .init(url, name: "--url") : nil,
                otlp: givenOnCommandLine ? .init(logsEndpoint: otlpEndpoint, name: "--otlp-endpoint") : nil,
                limits: DeliveryLimits.Given(
                    capCount: .init(capCount, name: "--cap-count"), capWindow: .init(capWindow, name: "--cap-window"),
                    maxPendingReports: .init(maxPendingReports, name: "--max-pending-reports"),
                    maxPendingBytes: .init(maxPendingBytes, name: "--max-pending-bytes"),
                    keepDays: .init(keepDays, name: "--keep-days")))
        } catch {
            throw ToolFailure(description: error.description)
        }
    }

    /// The next-launch pipeline for `directory`, the service's own, with its rules, the stored
    /// opt-out and the operators' override.
    func pipeline(directory: String, environment: [String: String]) throws(ToolFailure) -> NextLaunchPipeline {
        let configuration = try configuration(environment: environment)
        guard
            let transport = configuration.makeTransport(
                release: EnvironmentSettings(environment).text(.sentryRelease),
                environment: EnvironmentSettings(environment).text(.sentryEnvironment),
                diagnose: { message in
                    var error = StandardStream.error
                    error.write("warning: \(message)\n")
                })
        else {
            throw ToolFailure(
                description:
                    "nowhere to upload: give --url URL, --dsn DSN or --otlp-endpoint URL (or set "
                    + "\(EnvironmentVariable.uploadURL.name), \(EnvironmentVariable.sentryDSN.name) or "
                    + "\(EnvironmentVariable.otlpEndpoint.name))")
        }
        // The service's stored opt-out, and the operators' override, apply here too.
        let symbolicator: Symbolicator
        do { symbolicator = try debug.symbolicator(environment: environment) } catch {
            throw ToolFailure(description: error.description)
        }
        return configuration.pipeline(
            store: ReportStore(stateDirectory: directory), transport: transport,
            symbolicate: { [symbolicator] in
                symbolicator.symbolicate($0)
            })
    }
}

extension DeliverySummary {
    /// What a pass did, one line, then a line for each report kept, rejected or summarised.
    func write(to output: inout some TextOutputStream, store: ReportStore) {
        var line =
            "Delivered \(delivered.count), rejected \(rejected.count), kept for retry \(retrying.count)"
        if !withheld.isEmpty { line += ", withheld \(withheld.count) (crash loop)" }
        if !summaries.isEmpty { line += ", summaries \(summaries.count)" }
        if pruned > 0 { line += ", removed \(pruned) unsent (retention)" }
        if deleted > 0 { line += ", deleted \(deleted) (crash reporting is opted out)" }
        output.write(line + ".\n")
        for (id, at) in retrying.sorted(by: { $0.value < $1.value }) {
            output.write("  \(id): next attempt \(Timestamp(seconds: at).iso8601)\n")
        }
        for id in rejected {
            output.write("  \(id): rejected: \(store.rejection(id: id)?.reason ?? "rejected")\n")
        }
        for (id, count) in summaries.sorted(by: { $0.key < $1.key }) {
            output.write("  \(id): summary of \(count) withheld report(s)\n")
        }
    }
}
