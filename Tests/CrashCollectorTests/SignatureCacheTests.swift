import CrashReportFormat
import CrashSymbolication
import Foundation
import Testing

@testable import crash_collector

@Suite("Signatures made once per distinct stack")
struct SignatureCacheTests {
    private func report() throws -> CrashReport {
        try ReportDecoding.decode(gzipData: Fixtures.segfault)
    }

    @Test("the same stack of the same build from another report has the same key; another frame or build does not")
    func keys() throws {
        let first = try report()
        var again = first
        again.reportID = "0f1e2d3c-4b5a-4968-8776-655443322110"
        again.timestampMs += 60_000
        #expect(SignatureCache.key(of: again) == SignatureCache.key(of: first))

        var moved = first
        var crash = try #require(moved.crash)
        crash.frames[1].ip = Address(crash.frames[1].ip.rawValue + 16)
        moved.crash = crash
        #expect(SignatureCache.key(of: moved) != SignatureCache.key(of: first))

        var rebuilt = first
        let main = try #require(rebuilt.images.firstIndex { $0.main })
        rebuilt.images[main].buildID = String(repeating: "ab", count: 20)
        #expect(SignatureCache.key(of: rebuilt) != SignatureCache.key(of: first))
    }

    @Test("a cached signature is the one the symbolicator gives")
    func sameAsUncached() throws {
        let report = try report()
        let cache = SignatureCache(symbolicator: Symbolicator())
        let direct = CrashSignature(report: report, symbols: Symbolicator().symbolicate(report))
        #expect(cache.signature(of: report) == direct)
        #expect(cache.signature(of: report) == direct, "and again, from the cache")
    }
}
