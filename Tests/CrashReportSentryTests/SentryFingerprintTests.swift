import Foundation
import TestSupport
import Testing

@testable import CrashReportFormat
@testable import CrashReportSentry

/// A crash's `fingerprint` is its signature by names (docs/grouping.md), sent only when some
/// frame has a name: offsets move with every build, and Sentry's own grouping does better.
@Suite("Sentry fingerprint")
struct SentryFingerprintTests {
    @Test func aCrashWithNamesIsGroupedAsTheCollectorGroupsIt() throws {
        let report = try SentryEnvelopeTests.report()
        let (_, _, _, event) = try SentryEnvelopeTests.envelope()
        let symbols = ReportSymbols(crash: SentryEnvelopeTests.symbols)
        let signature = CrashSignature(report: report, symbols: symbols)
        // The message wins over the runtime failure; the pseudo-frame is no frame.
        #expect(
            event["fingerprint"] as? [String] == ["SIGSEGV", "Order.total()", "Order.submit()", "Index out of range"])
        #expect(event["fingerprint"] as? [String] == signature.parts)
    }

    @Test func withoutNamesThereIsNone() throws {
        let (_, _, _, event) = try SentryEnvelopeTests.envelope(symbols: [:])
        #expect(event["fingerprint"] == nil)
    }
}
