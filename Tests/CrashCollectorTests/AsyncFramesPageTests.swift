import CrashReportFormat
import CrashSymbolication
import Foundation
import Testing

@testable import crash_collector

/// A stored report with async frames: on its page, after the frame that ran them, marked; its
/// thread's task on the thread's line; and in the signature cache's key.
@Suite("Async frames on the collector's pages")
struct AsyncFramesPageTests {
    /// The segfault fixture whose crashing thread ran task 9 ("checkout") and has two async
    /// frames after its frame 0, and a third beyond the report's bound.
    static func report() throws -> CrashReport {
        var report = try ReportDecoding.decode(gzipData: Fixtures.segfault)
        let crashed = try #require(report.threads.firstIndex { $0.crashed })
        let main = try #require(report.images.firstIndex { $0.main })
        let base = report.images[main].base.rawValue
        report.threads[crashed].asyncFrames = [0x2000, 0x2400].map {
            CrashReport.Frame(ip: Address(base + $0), sp: 0x7f00_0000_1000, trust: .async, image: main)
        }
        report.threads[crashed].asyncFramesAt = 0
        report.threads[crashed].asyncFramesOmitted = 1
        report.threads[crashed].task = .init(id: 9, name: "checkout <b>", priority: 25)
        return report
    }

    @Test func thePageShowsTheChainAfterTheFrameThatRanItWithTheTask() throws {
        let report = try Self.report()
        let crashed = try #require(report.threads.firstIndex { $0.crashed })
        let symbols = ReportSymbols(asyncFrames: [crashed: [0: [FrameSymbol(function: "Cart.checkout()")]]])
        let page = ReportPage.render(
            report, symbolication: Symbolication(symbols: symbols, runtimeFailure: nil, images: [:]))
        #expect(page.contains(", task 9 &quot;checkout &lt;b&gt;&quot;, priority high</p>"))
        let named = try #require(page.range(of: "Cart.checkout()</span> <span class=\"async\">async</span>"))
        let unnamed = try #require(
            page.range(of: "<span class=\"async\">async</span></td>", range: named.upperBound..<page.endIndex))
        let notKept = try #require(page.range(of: "… 1 more async frame not kept …"))
        #expect(named.lowerBound < unnamed.lowerBound && unnamed.upperBound < notKept.lowerBound)
        // The crash's frame 0 comes before the chain, its frame 1 after it.
        let frameOne = try #require(page.range(of: "<td class=\"mono index\">3</td>"))
        #expect(notKept.upperBound < frameOne.lowerBound)
    }

    @Test func theSignatureCacheTellsAChainFromItsAbsence() throws {
        let report = try Self.report()
        var without = report
        for index in without.threads.indices { without.threads[index].asyncFrames = [] }
        #expect(SignatureCache.key(of: report) != SignatureCache.key(of: without))
        var moved = report
        let crashed = try #require(moved.threads.firstIndex { $0.crashed })
        moved.threads[crashed].asyncFrames[1].ip = Address(moved.threads[crashed].asyncFrames[1].ip.rawValue + 16)
        #expect(SignatureCache.key(of: moved) != SignatureCache.key(of: report))
    }
}
