import CrashReportDelivery
import CrashReportFormat
import CrashReporterSupport
import CrashSymbolication
import Tracking

/// Picks the transport the configuration asks for: a Sentry DSN wins over a plain URL, and a
/// URL over an OTLP endpoint; with none, nothing is sent.
enum TransportChoice {
    static func make(_ config: ResolvedConfiguration) -> (any ReportTransport)? {
        config.delivery.makeTransport(
            release: config.appVersion.isEmpty ? nil : config.appVersion, environment: config.environmentName,
            diagnose: { Diagnostics.report($0, level: .warning) })
    }

}
