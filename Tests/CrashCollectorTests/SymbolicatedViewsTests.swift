import CrashReportFormat
import CrashReporterSupport
import CrashSymbolication
import Foundation
import Testing

@testable import crash_collector

/// The symbolicated view the collector serves, and that it is made once per report.
@Suite struct SymbolicatedViewsTests {
    @Test func theViewKeepsTheReportItsSymbolsAndTheText() throws {
        let report = try ReportDecoding.decode(gzipData: Fixtures.segfault)
        let crashSymbols: [Int: [FrameSymbol]] = [
            1: [
                FrameSymbol(function: "inlinedHelper()", inlined: true),
                FrameSymbol(function: "CrashKind.perform()", offset: 64),
            ]
        ]
        let symbolication = Symbolication(
            symbols: ReportSymbols(crash: crashSymbols, threads: [0: crashSymbols]), runtimeFailure: nil, images: [:])
        let view = SymbolicatedViews.make(report, symbolication: symbolication)
        #expect(view.report == report)
        #expect(view.symbolication == symbolication)
        #expect(view.text == TextRenderer(symbolication: symbolication).render(report))
        #expect(view.text.contains("CrashKind.perform() + 64"))
    }

    @Test func aViewIsMadeOncePerReportID() throws {
        let report = try ReportDecoding.decode(gzipData: Fixtures.segfault)
        let views = SymbolicatedViews(symbolicator: Symbolicator(homeDirectory: nil))
        let loads = Lock(0)
        let load: () -> CrashReport? = {
            loads.withLock { $0 += 1 }
            return report
        }
        let first = try #require(views.view(id: report.reportID, load: load))
        let second = try #require(views.view(id: report.reportID.uppercased(), load: load))
        #expect(first.text == second.text)
        #expect(loads.withLock { $0 } == 1)
        #expect(views.view(id: "00000000-0000-4000-8000-000000000000", load: { nil }) == nil)
    }
}
