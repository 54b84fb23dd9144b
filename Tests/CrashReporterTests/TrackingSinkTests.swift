import CCrashReporter
import Foundation
import TestSupport
import Testing
import Tracking

@testable import CrashReporter

/// The only suite that touches the C breadcrumb ring, the capture switch and the tracking
/// façade's breadcrumb sink: tracked events reach the crash ring through the sink that
/// `CrashReporter.start` plugs in.
@Suite("Tracked events in the crash ring", .serialized)
struct TrackingSinkTests {
    /// The ring as the crash handler would write it.
    func ringJSON() -> String {
        var buffer = [CChar](repeating: 0, count: 64 * 1024)
        let length = scr_breadcrumbs_write_json(&buffer, buffer.count)
        #expect(length > 0)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func freshRing() {
        scr_set_capture_enabled(1)
        #expect(scr_breadcrumbs_configure(32) == 0)
        TrackingSystem.setBreadcrumbSink(CrashReporter.breadcrumbSink)
    }

    @Test("every event becomes a breadcrumb in the crash ring, scrubbed")
    func breadcrumbInRing() throws {
        freshRing()
        let tracker = Tracker.breadcrumbsOnly()
        tracker.track(NamedEvent("checkout_done", parameters: ["who": "mail bob@example.org", "n": 3]))
        let json = ringJSON()
        #expect(json.contains("checkout_done"))
        #expect(json.contains("\"tracking\""))
        #expect(json.contains("[redacted]"))
        #expect(!json.contains("bob@example.org"))
    }

    @Test("a tracked event's breadcrumb is what Breadcrumbs.record makes of breadcrumbData")
    func ringMatchesRecord() throws {
        let cases: [[String: TrackingValue]] = [
            [:], ["n": 3], ["who": "mail bob@example.org", "ok": true, "x": 2.5],
            ["e": 5, "a": 1, "c": "three", "b": true, "d": 4.5],
            ["long": .string(String(repeating: "é", count: 80)), String(repeating: "k", count: 40): 1],
        ]
        for parameters in cases {
            freshRing()
            Tracker.breadcrumbsOnly().track(NamedEvent("same_crumb", parameters: parameters))
            Breadcrumbs.record("same_crumb", category: "tracking", data: RingBreadcrumbSink.data(parameters))
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(ringJSON().utf8)) as? [String: Any])
            let items = try #require(object["items"] as? [[String: Any]])
            try #require(items.count == 2)
            let crumbs = items.map { item in item.filter { $0.key != "timestamp_ms" } as NSDictionary }
            #expect(crumbs[0] == crumbs[1], "\(parameters)")
        }
    }

    @Test("planted personal data never reaches the crash ring")
    func plantedNeverInRing() throws {
        freshRing()
        let tracker = Tracker.breadcrumbsOnly()
        // The ring keeps four pairs per crumb: plant them four at a time.
        let pairs = Planted.values.sorted { $0.key < $1.key }
        for start in stride(from: 0, to: pairs.count, by: 4) {
            let chunk = Dictionary(
                uniqueKeysWithValues: pairs[start..<min(start + 4, pairs.count)].map { ($0.key, $0.value) })
            tracker.track(NamedEvent("planted", parameters: chunk))
        }
        let json = ringJSON()
        #expect(json.components(separatedBy: "[redacted]").count - 1 == Planted.values.count)
        for fragment in Planted.fragments {
            #expect(!json.contains(fragment), "\(fragment) in the ring")
        }
    }

    @Test("the analytics choice never touches the crash-reporting choice, nor the other way round")
    func regimesAreSeparate() throws {
        defer { scr_set_capture_enabled(1) }
        let dir = TempDirectory()
        try CrashReportingConsent.set(enabled: true, stateDirectory: dir.path)
        let tracker = Tracker(stateDirectory: dir.path)
        try tracker.setAnalyticsConsent(granted: true)
        try tracker.setAnalyticsConsent(granted: false)
        #expect(CrashReportingConsent.storedChoice(stateDirectory: dir.path) == true)
        try tracker.setAnalyticsConsent(granted: true)
        try CrashReportingConsent.set(enabled: false, stateDirectory: dir.path)
        #expect(AnalyticsConsent.stored(stateDirectory: dir.path) == .granted)
        #expect(dir.contents("crash-reporting.consent") == "disabled\n")
        #expect(dir.contents("analytics.consent") == "granted 2\n")
    }

    @Test("breadcrumbs carry the first four parameters by key")
    func breadcrumbData() {
        let data = RingBreadcrumbSink.data(["e": 5, "a": 1, "c": "three", "b": true, "d": 4.5])
        #expect(data.map(\.key) == ["a", "b", "c", "d"])
        #expect(data.map(\.value) == ["1", "true", "three", "4.5"])
    }
}
