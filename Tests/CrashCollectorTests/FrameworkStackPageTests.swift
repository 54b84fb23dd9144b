import CrashReportFormat
import CrashSymbolication
import Foundation
import Testing

@testable import crash_collector

/// A framework service's crash on the report page: only the app's own frames highlighted (a
/// dependency's source is in a package checkout), thunks folded until the toggle shows them,
/// and a report POSTed to the collector's base URL taken as at /api/reports.
@Suite("A framework service's stack on the report page")
struct FrameworkStackPageTests {
    static let vapor = "/src/app/.build/checkouts/vapor/Sources/Vapor/Routing/RoutesBuilder+Method.swift"

    /// The segfault fixture, its crash's frames named as a Vapor route's (the frames are in
    /// the main executable or not as the fixture has them; highlighting needs the former).
    static func page(_ options: ReportPage.Options = .init()) throws -> (String, CrashReport) {
        var report = try ReportDecoding.decode(gzipData: Fixtures.segfault)
        let main = try #require(report.images.firstIndex { $0.main })
        let base = report.images[main].base.rawValue
        report.crash?.frames = (0..<4).map {
            CrashReport.Frame(
                ip: Address(base + 0x1000 + UInt64($0) * 0x100), sp: 0x7f00_0000_1000, trust: .cfi, image: main)
        }
        report.crash?.framesOmitted = 0
        report.crash?.framesOmittedAt = 4
        for index in report.threads.indices { report.threads[index].crashed = false }
        let symbols = ReportSymbols(crash: [
            0: [FrameSymbol(function: "closure #1 in routes(_:)", file: "/src/app/Sources/App/routes.swift", line: 9)],
            1: [FrameSymbol(function: "partial apply for closure #1 in routes(_:)")],
            2: [FrameSymbol(function: "RoutesBuilder.on(_:body:use:)", file: vapor, line: 40)],
            3: [FrameSymbol(function: "configure(_:)", file: "/src/app/Sources/App/configure.swift", line: 3)],
        ])
        let html = ReportPage.render(
            report, symbolication: Symbolication(symbols: symbols, runtimeFailure: nil, images: [:]), options: options)
        return (html, report)
    }

    /// The crash's table, the first on the page.
    static func firstTable(_ html: String) throws -> Substring {
        let start = try #require(html.range(of: "<table class=\"stack"))
        let end = try #require(html.range(of: "</table>", range: start.upperBound..<html.endIndex))
        return html[start.lowerBound..<end.upperBound]
    }

    @Test func onlyTheAppsOwnFramesAreHighlightedAndTheThunkIsFolded() throws {
        let (html, report) = try Self.page()
        let table = try Self.firstTable(html)
        let rows = table.components(separatedBy: "<tr class=\"frame").dropFirst()
        #expect(rows.count == 3, "the thunk is folded: \(rows)")
        #expect(rows[1].hasPrefix(" in-app\"") && rows[1].contains("closure #1 in routes(_:)"))
        #expect(rows[1].contains("<span class=\"thunk\">+1 thunk</span>"))
        #expect(rows[2].hasPrefix("\"") && rows[2].contains("RoutesBuilder.on"), "Vapor's frame is not the app's")
        #expect(rows[3].hasPrefix(" in-app\"") && rows[3].contains("<td class=\"mono index\">3</td>"))
        #expect(!table.contains("partial apply"))
        let id = report.reportID.lowercased()
        #expect(html.contains("<a class=\"toggle\" href=\"/reports/\(id)?thunks=shown\">show compiler thunks</a>"))
    }

    @Test func theToggleShowsTheThunkAsARowOfItsOwn() throws {
        let (html, report) = try Self.page(.init(showsThunks: true))
        let table = try Self.firstTable(html)
        #expect(table.components(separatedBy: "<tr class=\"frame").count - 1 == 4)
        #expect(table.contains("<tr class=\"frame\"><td class=\"mono index\">1</td>"), "a thunk is not highlighted")
        #expect(table.contains("partial apply for closure #1 in routes(_:)") && !table.contains("class=\"thunk\""))
        #expect(html.contains("href=\"/reports/\(report.reportID.lowercased())\">fold compiler thunks</a>"))
    }

    @Test func aConfiguredPrefixIsNotHighlighted() throws {
        let (html, _) = try Self.page(
            .init(dependencies: DependencyPaths(prefixes: ["/src/app/Sources/App/configure"])))
        let rows = try Self.firstTable(html).components(separatedBy: "<tr class=\"frame").dropFirst()
        #expect(rows[1].hasPrefix(" in-app\"") && rows.last?.hasPrefix("\"") == true)
    }

    @Test func aReportPostedToTheBaseURLIsStored() throws {
        let collector = try CollectorProcess()
        defer { _ = collector.stop() }
        let id = try Fixtures.segfaultID
        let stored = try collector.request("POST", "/", headers: [("X-Crash-Report-ID", id)], body: Fixtures.segfault)
        #expect(stored.status == 201 && stored.json?["id"] as? String == id)
        #expect(collector.files(in: "reports", suffix: ".crash") == ["\(id).crash"])
        let other = try collector.request("PUT", "/", body: Data())
        #expect(other.status == 405 && other.headers["allow"] == "GET, HEAD, POST")
        #expect(try collector.request("GET", "/").status == 200)
    }
}
