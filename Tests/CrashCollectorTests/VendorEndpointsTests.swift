import Foundation
import Testing

/// `POST /v2/` (TelemetryDeck signals) and `POST /batch/` (PostHog capture), the collector's
/// stand-ins for the vendors' APIs (docs/collector.md), end to end.
@Suite struct VendorEndpointsTests {
    static let key = "phc_collector_test"

    private func post(_ collector: CollectorProcess, _ path: String, _ body: Any) throws -> RawHTTP.Response {
        let data = try JSONSerialization.data(withJSONObject: body)
        return try collector.request("POST", path, headers: [("Content-Type", "application/json")], body: data)
    }

    private func counts(_ collector: CollectorProcess) throws -> [String: Int] {
        try collector.request("GET", "/api/events").json?["by_name"] as? [String: Int] ?? [:]
    }

    static func signal(_ type: String = "Order.Placed") -> [String: Any] {
        [
            "appID": "APP", "clientUser": "5e1f", "sessionID": "s", "type": type, "isTestMode": "true",
            "payload": ["n": 1],
        ]
    }

    static func capture(_ name: String = "order_placed", uuid: String = UUID().uuidString.lowercased()) -> [String: Any]
    {
        [
            "event": name, "distinct_id": "install-1", "uuid": uuid, "timestamp": "2026-12-01T22:00:00.000Z",
            "properties": ["n": 1, "$process_person_profile": false],
        ]
    }

    @Test func telemetryDeckSignals() throws {
        let collector = try CollectorProcess([])
        defer { collector.stop() }
        #expect(try post(collector, "/v2/", [Self.signal(), Self.signal("Run.Finished")]).status == 200)
        #expect(try post(collector, "/v2/namespace/acme/", [Self.signal()]).status == 200)
        var missing = Self.signal()
        missing["clientUser"] = nil
        for bad: Any in [[missing], [], ["appID": "APP"], [Self.signal().merging(["payload": [1]]) { $1 }]] {
            #expect(try post(collector, "/v2/", bad).status == 400, "\(bad)")
        }
        #expect(try post(collector, "/v2/", (0..<101).map { _ in Self.signal() }).status == 400)
        #expect(try counts(collector) == ["Order.Placed": 2, "Run.Finished": 1])
    }

    @Test func postHogBatches() throws {
        let collector = try CollectorProcess(["--events-write-key", Self.key])
        defer { collector.stop() }
        let event = Self.capture()
        #expect(try post(collector, "/batch/", ["api_key": Self.key, "batch": [event, Self.capture()]]).status == 200)
        // The same uuid again (a resent batch) is stored once.
        #expect(try post(collector, "/batch/", ["api_key": Self.key, "batch": [event]]).status == 200)
        #expect(try post(collector, "/batch/", ["api_key": "phc_other", "batch": [Self.capture()]]).status == 401)
        #expect(try post(collector, "/batch/", ["batch": [Self.capture()]]).status == 401)
        var noUUID = Self.capture()
        noUUID["uuid"] = "not-a-uuid"
        for bad: Any in [
            ["api_key": Self.key, "batch": [noUUID]], ["api_key": Self.key, "batch": []], [Self.capture()],
        ] {
            #expect(try post(collector, "/batch/", bad).status == 400, "\(bad)")
        }
        #expect(try counts(collector) == ["order_placed": 2])
    }

    @Test func faultInjectionReachesBoth() throws {
        let collector = try CollectorProcess(["--fail-next", "2", "503"])
        defer { collector.stop() }
        #expect(try post(collector, "/v2/", [Self.signal()]).status == 503)
        #expect(try post(collector, "/batch/", ["api_key": "k", "batch": [Self.capture()]]).status == 503)
        #expect(try post(collector, "/batch/", ["api_key": "k", "batch": [Self.capture()]]).status == 200)
        #expect(try counts(collector) == ["order_placed": 1])
    }
}
