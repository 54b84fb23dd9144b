import CrashReportFormat
import Foundation

/// The plain transport: the report file as written, POSTed to a URL, with its id in
/// `X-Crash-Report-ID` so that the receiver can drop a repeat (the same id on every retry).
public struct HTTPEndpointTransport: ReportTransport {
    public let url: URL
    public var timeout: TimeInterval

    public init(url: URL, timeout: TimeInterval = 30) {
        self.url = url
        self.timeout = timeout
    }

    public var wantsSymbols: Bool { false }

    public func send(_ report: OutgoingReport) -> DeliveryOutcome {
        HTTPClient(timeout: timeout).post(
            url: url,
            headers: [
                "Content-Type": "application/gzip",
                "X-Crash-Report-ID": report.id,
                "User-Agent": "swift-crash-reporter/\(CrashReportVersion.current)",
            ],
            body: report.fileData)
    }
}

/// The package's version, sent as the client's name and version.
public enum CrashReportVersion {
    public static let current = "0.1.0"
}
