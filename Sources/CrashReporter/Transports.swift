import CrashReportDelivery
import CrashReportFormat
import CrashReportSentry
import CrashSymbolication
import Foundation

/// Picks the transport the configuration asks for: a Sentry DSN wins over a plain URL;
/// with neither, nothing is sent.
enum Transports {
    static func make(_ config: ResolvedConfiguration) -> (any ReportTransport)? {
        if let dsn = config.sentryDSN {
            return SentryTransport(
                dsn: dsn, release: config.appVersion.isEmpty ? nil : config.appVersion,
                environment: config.environmentName, timeout: config.uploadTimeout)
        }
        if let url = config.uploadURL { return HTTPEndpointTransport(url: url, timeout: config.uploadTimeout) }
        return nil
    }

    /// Symbols for the transports that want them, from the binaries still on this machine.
    static let symbolicator: (@Sendable (CrashReport) -> [Int: [FrameSymbol]])? = { report in
        Symbolicator().symbolicate(report)
    }
}
