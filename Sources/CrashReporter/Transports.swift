import CrashReport
import Foundation

/// Picks the transport the configuration asks for: a Sentry DSN wins over a plain URL;
/// with neither, nothing is sent.
enum Transports {
    static func make(_ config: ResolvedConfiguration) -> (any ReportTransport)? {
        if let url = config.uploadURL { return HTTPTransport(url: url, timeout: config.uploadTimeout) }
        return nil
    }

    /// Symbols for the transports that want them.
    static let symbolicator: (@Sendable (CrashReport) -> [Int: [FrameSymbol]])? = nil
}
