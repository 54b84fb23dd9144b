import CrashReportDelivery
import CrashReportFormat
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The collector's front page, a group's page and a report's page, rendered by headless
/// Chromium at a phone's width (400 px) and a desktop's: what is shown is what the reports
/// say. The screenshots stay in `.build/test-artifacts/collector-pages/` (the test prints
/// where).
@Suite("The collector's pages in a browser", .serialized)
struct CollectorPagesBrowserTests {
    static let artifacts = Binaries.packageRoot.appendingPathComponent(".build/test-artifacts/collector-pages")

    /// What the probe reports about a page: its width, the charts' bars, the groups' rows and
    /// the frames' rows with their background colour.
    static let probe = """
        const px = e => e.getBoundingClientRect().height;
        return {
          innerWidth: window.innerWidth, scrollWidth: document.documentElement.scrollWidth,
          h1: document.querySelector('h1').textContent,
          charts: [...document.querySelectorAll('svg.chart')].map(svg => ({
            height: px(svg), bars: [...svg.querySelectorAll('rect.bar')].map(r => ({count: +r.dataset.count, height: px(r)}))
          })),
          groups: [...document.querySelectorAll('tr.group')].map(tr => ({
            title: tr.querySelector('.group-title').textContent, count: +tr.querySelector('.count').textContent,
            bars: [...tr.querySelectorAll('rect.bar')].map(r => +r.dataset.count)
          })),
          frames: [...document.querySelectorAll('table.stack')].slice(0, 1).flatMap(t => [...t.querySelectorAll('tr.frame')])
            .map(tr => ({inApp: tr.classList.contains('in-app'), text: tr.textContent,
              background: getComputedStyle(tr).backgroundColor})),
          numbers: [...document.querySelectorAll('table.stack')].slice(0, 1).flatMap(t => [...t.querySelectorAll('td.index')])
            .filter(td => td.textContent.length > 0).map(td => {
              const range = document.createRange(); range.selectNodeContents(td);
              return {text: td.textContent, lines: range.getClientRects().length};
            })
        };
        """

    /// A copy of a real report, `hoursAgo` earlier, as another version, with a new id.
    static func copy(of file: URL, hoursAgo: Int, version: String) throws -> (id: String, data: Data) {
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(Gzip.decompress(Data(contentsOf: file)))) as? [String: Any])
        let id = UUID().uuidString.lowercased()
        let time = try #require(object["timestamp_ms"] as? Int) - hoursAgo * 3_600_000
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        object["report_id"] = id
        object["timestamp_ms"] = time
        object["timestamp"] = formatter.string(from: Date(timeIntervalSince1970: Double(time) / 1000))
        var app = try #require(object["app"] as? [String: Any])
        app["version"] = version
        object["app"] = app
        return (id, Data(try Gzip.compress(JSONSerialization.data(withJSONObject: object))))
    }

    /// A copy of a real report whose crash has `count` frames: its own, then each again one
    /// byte further on (the same functions, so that the names are real), to the count.
    static func deepCopy(of file: URL, frames count: Int) throws -> (id: String, data: Data) {
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(Gzip.decompress(Data(contentsOf: file)))) as? [String: Any])
        let id = UUID().uuidString.lowercased()
        object["report_id"] = id
        var crash = try #require(object["crash"] as? [String: Any])
        let own = try #require(crash["frames"] as? [[String: Any]])
        var frames = own
        while frames.count < count {
            var frame = own[frames.count % own.count]
            let ip = try #require(UInt64((frame["ip"] as? String ?? "").dropFirst(2), radix: 16))
            frame["ip"] = "0x" + String(ip + UInt64(frames.count / own.count), radix: 16)
            frame["trust"] = "cfi"
            frames.append(frame)
        }
        crash["frames"] = frames
        object["crash"] = crash
        return (id, Data(try Gzip.compress(JSONSerialization.data(withJSONObject: object))))
    }

    /// Two segfaults and a fatal error from the real `crash-test`, and copies of them hours
    /// earlier as an older version; analytics events of two names.
    func scene() async throws -> (CrashSandbox, CollectorChild, fatalID: String) {
        let sandbox = try CrashSandbox(binary: Binaries.crashTest(build: "debug"))
        for kind in ["segfault", "segfault", "fatal-error"] { _ = try await sandbox.crash(kind) }
        let reports = try sandbox.reports.map { ($0, try ReportFile($0)) }
        let fatal = try #require(reports.first { $0.1.crash["message"] is String })
        let segfault = try #require(reports.first { !($0.1.crash["message"] is String) })
        let data = try sandbox.scratch("collector")
        let folder = data.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (file, _) in reports {
            try FileManager.default.copyItem(at: file, to: folder.appendingPathComponent(file.lastPathComponent))
        }
        for (file, hours) in [(segfault.0, 3), (segfault.0, 3), (segfault.0, 5), (fatal.0, 1)] {
            let (id, bytes) = try Self.copy(of: file, hoursAgo: hours, version: "0.9.0")
            try bytes.write(to: folder.appendingPathComponent("\(id).crash"))
        }
        let collector = try await CollectorChild(data: data, home: sandbox.home)
        try await Self.postEvents(collector, names: ["app_opened", "app_opened", "order_created"])
        return (sandbox, collector, ReportStore.id(of: fatal.0.path))
    }

    static func postEvents(_ collector: CollectorChild, names: [String]) async throws {
        let now = ISO8601DateFormatter().string(from: Date())
        let events = names.map {
            #"{"event_id":"\#(UUID().uuidString)","name":"\#($0)","anonymous_id":"a","occurred_at":"\#(now)"}"#
        }
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(collector.port)/v1/events")))
        request.httpMethod = "POST"
        request.setValue("key", forHTTPHeaderField: "X-Write-Key")
        request.httpBody = Data(#"{"events":[\#(events.joined(separator: ","))]}"#.utf8)
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }

    /// Every bar is as tall as its count against the chart's largest count.
    func expectBarsMatchCounts(_ charts: [[String: Any]], _ page: String) {
        #expect(!charts.isEmpty, "\(page) has no chart")
        for chart in charts {
            let height = chart["height"] as? Double ?? 0
            let bars = chart["bars"] as? [[String: Any]] ?? []
            let largest = bars.compactMap { $0["count"] as? Int }.max() ?? 0
            #expect(height > 0 && largest > 0, "\(page): an empty chart")
            for bar in bars {
                let expected = Double(bar["count"] as? Int ?? 0) / Double(max(largest, 1)) * height
                let shown = bar["height"] as? Double ?? -1
                #expect(
                    abs(shown - expected) < 0.6,
                    "\(page): a bar of \(bar["count"] ?? 0) is \(shown) px, not \(expected)")
            }
        }
    }

    @Test(
        "front page, group page and report page: titles, charts, highlighted frames, no sideways scrolling",
        .enabled(if: HeadlessChromium.unavailable == nil, "\(HeadlessChromium.unavailable ?? "")"),
        .timeLimit(.minutes(10)))
    func pages() async throws {
        let (sandbox, collector, fatalID) = try await scene()
        defer { sandbox.remove() }
        try? FileManager.default.removeItem(at: Self.artifacts)
        try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
        print("Screenshots of the collector's pages: \(Self.artifacts.path)")
        let work = try sandbox.scratch("browser")

        let front = try await collector.get("/")
        #expect(front.status == 200)
        var measured: [String: [String: Any]] = [:]
        for width in [400, 1280] {
            let found = try await HeadlessChromium.measure(
                html: front.text, width: width, probe: Self.probe, name: "front-\(width)", in: work)
            measured["front-\(width)"] = try #require(found as? [String: Any])
        }
        let phone = try #require(measured["front-400"])
        #expect(phone["innerWidth"] as? Int == 400)
        #expect(phone["scrollWidth"] as? Int ?? .max <= 400, "the front page scrolls sideways at 400 px")
        #expect(measured["front-1280"]?["scrollWidth"] as? Int ?? .max <= 1280)
        let groups = try #require(phone["groups"] as? [[String: Any]])
        let titles = groups.compactMap { $0["title"] as? String }
        #expect(titles.first == "crashByFatalError() — crash-test fatal error on purpose", "newest first: \(titles)")
        #expect(titles.dropFirst().first == "crashBySegfault() — SIGSEGV", "\(titles)")
        #expect(groups.compactMap { $0["count"] as? Int } == [2, 5])
        for group in groups {
            let bars = group["bars"] as? [Int] ?? []
            #expect(bars.reduce(0, +) == group["count"] as? Int, "the chart counts what the row counts")
        }
        #expect((groups.dropFirst().first?["bars"] as? [Int])?.filter { $0 > 0 }.count == 3, "now, 3 h and 5 h ago")
        expectBarsMatchCounts(phone["charts"] as? [[String: Any]] ?? [], "front page")

        // The segfault group's page.
        let apiGroups = try JSONSerialization.jsonObject(with: Data(try await collector.get("/api/groups").text.utf8))
        let segfaultKey = try #require(
            (apiGroups as? [[String: Any]])?.first {
                ($0["title"] as? String)?.hasPrefix("crashBySegfault()") == true
            }?[
                "key"] as? String)
        let group = try await collector.get("/groups/\(segfaultKey)")
        let groupPage = try #require(
            try await HeadlessChromium.measure(html: group.text, width: 400, probe: Self.probe, name: "group", in: work)
                as? [String: Any])
        #expect((groupPage["h1"] as? String)?.contains("crashBySegfault() — SIGSEGV") == true)
        #expect(groupPage["scrollWidth"] as? Int ?? .max <= 400, "the group page scrolls sideways at 400 px")
        expectBarsMatchCounts(groupPage["charts"] as? [[String: Any]] ?? [], "group page")
        let bars = (groupPage["charts"] as? [[String: Any]])?.first?["bars"] as? [[String: Any]] ?? []
        #expect(bars.compactMap { $0["count"] as? Int }.reduce(0, +) == 5)

        // The fatal error's report page.
        let report = try await collector.get("/reports/\(fatalID)")
        let reportPage = try #require(
            try await HeadlessChromium.measure(
                html: report.text, width: 400, probe: Self.probe, name: "report", in: work)
                as? [String: Any])
        #expect(reportPage["h1"] as? String == "crash crashByFatalError() — crash-test fatal error on purpose")
        #expect(reportPage["scrollWidth"] as? Int ?? .max <= 400, "the report page scrolls sideways at 400 px")
        let frames = reportPage["frames"] as? [[String: Any]] ?? []
        let inApp = frames.filter { $0["inApp"] as? Bool == true }
        let others = frames.filter { $0["inApp"] as? Bool != true }
        #expect((inApp.first?["text"] as? String)?.contains("crashByFatalError()") == true, "\(inApp)")
        #expect(!others.isEmpty && !inApp.isEmpty)
        let highlight = Set(inApp.compactMap { $0["background"] as? String })
        #expect(highlight.count == 1, "one highlight colour: \(highlight)")
        #expect(others.allSatisfy { !highlight.contains($0["background"] as? String ?? "") }, "\(others)")
        #expect(!others.contains { ($0["text"] as? String)?.contains("crashByFatalError()") == true })

        // A deep stack: two-digit frame numbers stay on one line at every width.
        let fatalFile = try #require(sandbox.reports.first { ReportStore.id(of: $0.path) == fatalID })
        let (deepID, deepBytes) = try Self.deepCopy(of: fatalFile, frames: 14)
        var upload = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(collector.port)/api/reports")))
        upload.httpMethod = "POST"
        upload.httpBody = deepBytes
        let (_, uploaded) = try await URLSession.shared.data(for: upload)
        #expect((uploaded as? HTTPURLResponse)?.statusCode == 201)
        let deep = try await collector.get("/reports/\(deepID)")
        for width in [400, 720, 1280] {
            let measuredDeep = try #require(
                try await HeadlessChromium.measure(
                    html: deep.text, width: width, probe: Self.probe, name: "deep-\(width)", in: work)
                    as? [String: Any])
            let numbers = measuredDeep["numbers"] as? [[String: Any]] ?? []
            #expect(numbers.contains { $0["text"] as? String == "13" }, "\(numbers)")
            for number in numbers {
                #expect(number["lines"] as? Int == 1, "frame \(number["text"] ?? "") wraps at \(width) px")
            }
        }

        // Screenshots: every page at a phone's and a desktop's width.
        let base = "http://127.0.0.1:\(collector.port)"
        for (name, path) in [
            ("front-page", "/"), ("group-page", "/groups/\(segfaultKey)"), ("report-page", "/reports/\(fatalID)"),
            ("deep-report-page", "/reports/\(deepID)"),
        ] {
            try await HeadlessChromium.screenshot(
                base + path, to: Self.artifacts.appendingPathComponent("\(name)-desktop.png"), width: 1280, height: 900,
                in: work)
        }
        for name in ["front-400", "group", "report"] {
            try await HeadlessChromium.screenshot(
                work.appendingPathComponent("\(name)-harness.html").absoluteString,
                to: Self.artifacts.appendingPathComponent("\(name)-phone.png"), width: 520, height: 900, in: work)
        }
        let stopped = try await collector.stop()
        #expect(stopped.exitCode == 0)
    }
}
