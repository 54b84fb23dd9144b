import ArgumentParser
import CrashReportDelivery
import CrashReportFormat
import CrashReportSentry
import CrashReporterSupport
import CrashSymbolication

/// `crashreport export`: one report as JSON or as the Sentry envelope the Sentry transport
/// would send (symbolicated when the binary is on this machine).
struct ExportCommand: ToolSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print one report in a format for other tools.",
        discussion: """
            json: the report as JSON (as `show --json`). sentry-envelope: the envelope the Sentry transport \
            sends, symbolicated with the binaries on this machine; SENTRY_RELEASE and SENTRY_ENVIRONMENT \
            override the report's version and environment.
            """)

    enum Format: String, CaseIterable, ExpressibleByArgument {
        case json
        case sentryEnvelope = "sentry-envelope"
    }

    @Option(help: "The output format.")
    var format: Format

    @OptionGroup var debug: DebugDirectoryArguments

    @OptionGroup var target: ReportArguments

    func run(environment: [String: String], output: inout some TextOutputStream) throws {
        let report = try target.decoded(environment: environment)
        switch format {
        case .json:
            output.write(try JSONRenderer().render(report))
        case .sentryEnvelope:
            let data = try SentryEnvelope.make(
                report: report, symbols: try debug.symbolication(of: report, environment: environment).symbols,
                release: EnvironmentSettings(environment).text(.sentryRelease)
                    ?? (report.app.version.isEmpty ? nil : report.app.version),
                environment: EnvironmentSettings(environment).text(.sentryEnvironment) ?? report.app.environment,
                sdkName: SentryTransport.sdkName, sdkVersion: CrashReportVersion.current)
            output.write(String(decoding: data, as: UTF8.self))
        }
    }
}
