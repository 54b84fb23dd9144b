import CrashReportDelivery
import CrashReportFormat
import CrashReportSentry
import CrashSymbolication
import Foundation

/// `crashreport upload`: one delivery pass over a state directory's pending reports, with the
/// same rules and the same lock as the service's own worker: for a sidecar or a cron job when
/// the service itself does not come back.
enum UploadCommand {
    static func run(
        _ options: UploadOptions, environment: [String: String], output: inout some TextOutputStream
    ) throws -> ExitCode {
        let directory = try Locations.stateDirectory(options.directory, environment: environment)
        let transport = try transport(options, environment: environment)
        var policy = DeliveryPolicy()
        if let base = environment["CRASH_REPORTER_RETRY_BASE_SECONDS"].flatMap(Double.init), base >= 0 {
            policy.baseDelay = base
        }
        let deliverer = Deliverer(
            store: ReportStore(stateDirectory: directory),
            transport: transport,
            policy: policy,
            symbolicate: { Symbolicator().symbolicate($0) },
            // The service's stored opt-out, and the operators' override, apply here too.
            isAllowed: { CrashReportingChoice.isEnabled(stateDirectory: directory.path, environment: environment) })
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
            output.write("  \(id): next attempt \(ISO8601DateFormatter().string(from: at))\n")
        }
        for id in summary.rejected {
            let reason = ReportStore(stateDirectory: directory).rejection(id: id)?.reason ?? "rejected"
            output.write("  \(id): rejected: \(reason)\n")
        }
        return .success
    }

    /// `--dsn`, `--url`, else `SENTRY_DSN`, else `CRASH_REPORTER_URL`.
    static func transport(_ options: UploadOptions, environment: [String: String]) throws(ToolFailure)
        -> any ReportTransport
    {
        let timeout = environment["CRASH_REPORTER_UPLOAD_TIMEOUT_SECONDS"].flatMap(Double.init) ?? 30
        if let dsn = options.dsn ?? (options.url == nil ? environment["SENTRY_DSN"] : nil), !dsn.isEmpty {
            do {
                return try SentryTransport(
                    dsn: SentryDSN(dsn), release: environment["SENTRY_RELEASE"],
                    environment: environment["SENTRY_ENVIRONMENT"], timeout: timeout)
            } catch {
                throw ToolFailure(description: "invalid DSN: \(error)")
            }
        }
        guard let text = options.url ?? environment["CRASH_REPORTER_URL"], !text.isEmpty else {
            throw ToolFailure(
                description: "nowhere to upload: give --url URL or --dsn DSN (or set CRASH_REPORTER_URL or SENTRY_DSN)")
        }
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? "") else {
            throw ToolFailure(description: "invalid URL: \(text)")
        }
        return HTTPEndpointTransport(url: url, timeout: timeout)
    }
}
