import ArgumentParser
import CrashReportDelivery

/// `crashreport upload`: one delivery pass over a state directory's pending reports, with the
/// same rules and the same lock as the service's own worker: for a cron job or CI when the
/// service itself does not come back (`watch` is the sidecar that stays).
struct UploadCommand: ToolSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract: "Deliver a state directory's pending reports now.",
        discussion: """
            One delivery pass with the service's own rules (retries, Retry-After, rejections, the crash-loop \
            cap, the retention bounds, the directory lock), for example from a cron job. Without --url, --dsn \
            or --otlp-endpoint it uses SENTRY_DSN, else CRASH_REPORTER_URL, else OTEL_EXPORTER_OTLP_ENDPOINT. Exits with 75 (EX_TEMPFAIL) when reports stay pending \
            for a retry.
            """)

    /// The exit status when reports stay pending for a retry (sysexits' `EX_TEMPFAIL`).
    static let retryLaterStatus: Int32 = 75

    @OptionGroup var delivery: DeliveryArguments

    @OptionGroup var stateDirectory: StateDirectoryArgument

    func run(environment: [String: String], output: inout some TextOutputStream) throws {
        let directory = try stateDirectory.resolved(environment: environment)
        let pipeline = try delivery.pipeline(directory: directory, environment: environment)
        let summary: DeliverySummary
        do {
            summary = try pipeline.run()
        } catch {
            throw ToolFailure(description: error.description)
        }
        summary.write(to: &output, store: pipeline.store)
        if !summary.retrying.isEmpty { throw ExitCode(Self.retryLaterStatus) }
    }
}
