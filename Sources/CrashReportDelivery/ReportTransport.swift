import CrashReportFormat
import Foundation

/// One report to send: the file as written, its decoded form and, when the binary was on
/// disk, its symbols.
public struct OutgoingReport: Sendable {
    public var id: String
    public var fileData: Data
    public var report: CrashReport
    public var symbols: [Int: [FrameSymbol]]

    public init(id: String, fileData: Data, report: CrashReport, symbols: [Int: [FrameSymbol]]) {
        self.id = id
        self.fileData = fileData
        self.report = report
        self.symbols = symbols
    }
}

/// Where reports go. A transport makes one attempt and says what happened; the retry rules
/// are `DeliveryPolicy`'s.
public protocol ReportTransport: Sendable {
    /// Whether the transport wants symbols (computing them costs time).
    var wantsSymbols: Bool { get }
    func send(_ report: OutgoingReport) -> DeliveryOutcome
}
