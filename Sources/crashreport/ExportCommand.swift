import CrashReportDelivery
import CrashReportFormat
import CrashReportSentry
import CrashSymbolication
import Foundation

/// `crashreport export`: one report as JSON or as the Sentry envelope the Sentry transport
/// would send (symbolicated when the binary is on this machine).
enum ExportCommand {
    static func run(
        _ options: ExportOptions, environment: [String: String], output: inout some TextOutputStream
    ) throws -> ExitCode {
        let report = try Locations.decodedReport(options.file, directory: options.directory, environment: environment)
        switch options.format {
        case .json:
            output.write(try JSONRenderer().render(report))
        case .sentryEnvelope:
            let data = try SentryEnvelope.make(
                report: report, symbols: Symbolicator().symbolicate(report),
                release: DeliveryConfiguration.release(environment: environment)
                    ?? (report.app.version.isEmpty ? nil : report.app.version),
                environment: DeliveryConfiguration.sentryEnvironment(environment: environment)
                    ?? report.app.environment,
                sdkName: SentryTransport.sdkName, sdkVersion: CrashReportVersion.current)
            output.write(String(decoding: data, as: UTF8.self))
        }
        return .success
    }
}
