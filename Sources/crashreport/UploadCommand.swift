import ArgumentParser
import CrashReportDelivery
import CrashReportFormat
import CrashReporterSupport
import CrashSymbolication

/// `crashreport upload`: one delivery pass over a state directory's pending reports, with the
/// same rules and the same lock as the service's own worker: for a sidecar or a cron job when
/// the service itself does not come back.
struct UploadCommand: ToolSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract: "Deliver a state directory's pending reports now.",
        discussion: """
            One delivery pass with the service's own rules (retries, Retry-After, rejections, the directory \
            lock), for example from a cron job or a sidecar. Without --url or --dsn it uses SENTRY_DSN, else \
            CRASH_REPORTER_URL.
            """)

    @Option(help: ArgumentHelp("Plain HTTP endpoint (default: CRASH_REPORTER_URL).", valueName: "url"))
    var url: String?

    @Option(help: ArgumentHelp("Sentry DSN (default: SENTRY_DSN).", valueName: "dsn"))
    var dsn: String?

    @OptionGroup var stateDirectory: StateDirectoryArgument

    func validate() throws {
        if url != nil && dsn != nil { throw ValidationError("give --url or --dsn, not both") }
    }

    func run(environment: [String: String], output: inout some TextOutputStream) throws {
        let directory = try stateDirectory.resolved(environment: environment)
        let configuration = try deliveryConfiguration(environment: environment)
        guard
            let transport = configuration.makeTransport(
                release: DeliveryConfiguration.release(environment: environment),
                environment: DeliveryConfiguration.sentryEnvironment(environment: environment))
        else {
            throw ToolFailure(
                description: "nowhere to upload: give --url URL or --dsn DSN (or set CRASH_REPORTER_URL or SENTRY_DSN)")
        }
        let deliverer = Deliverer(
            store: ReportStore(stateDirectory: directory),
            transport: transport,
            policy: configuration.policy,
            symbolicate: { Symbolicator().symbolicate($0) },
            // The service's stored opt-out, and the operators' override, apply here too.
            isAllowed: { CrashReportingChoice.isEnabled(stateDirectory: directory, environment: environment) })
        let summary: DeliverySummary
        do {
            summary = try deliverer.deliverPending()
        } catch {
            throw ToolFailure(description: error.description)
        }
        output.write(
            "Delivered \(summary.delivered.count), rejected \(summary.rejected.count), "
                + "kept for retry \(summary.retrying.count)"
                + (summary.deleted > 0 ? ", deleted \(summary.deleted) (crash reporting is opted out)" : "") + ".\n")
        for (id, at) in summary.retrying.sorted(by: { $0.value < $1.value }) {
            output.write("  \(id): next attempt \(Timestamp(seconds: at).iso8601)\n")
        }
        for id in summary.rejected {
            let reason = ReportStore(stateDirectory: directory).rejection(id: id)?.reason ?? "rejected"
            output.write("  \(id): rejected: \(reason)\n")
        }
    }

    /// The delivery settings, read as the service reads them (`DeliveryConfiguration`), with
    /// `--dsn` or `--url` standing in for both `SENTRY_DSN` and `CRASH_REPORTER_URL`: what the
    /// command line names is where this run delivers.
    func deliveryConfiguration(environment: [String: String]) throws(ToolFailure) -> DeliveryConfiguration {
        let givenOnCommandLine = dsn != nil || url != nil
        do {
            return try DeliveryConfiguration(
                environment: environment,
                sentryDSN: givenOnCommandLine ? .init(dsn, name: "--dsn") : nil,
                uploadURL: givenOnCommandLine ? .init(url, name: "--url") : nil)
        } catch {
            throw ToolFailure(description: error.description)
        }
    }
}
