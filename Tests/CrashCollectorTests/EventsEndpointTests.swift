import Foundation
import Testing

/// `POST /v1/events` (docs/events-api.md), end to end.
@Suite struct EventsEndpointTests {
    static let key = "aso_wk_test"

    static func event(_ name: String = "app_opened", id: String = UUID().uuidString.lowercased(), at: Date = Date())
        -> [String: Any]
    {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return [
            "event_id": id, "name": name, "anonymous_id": "install-1", "occurred_at": formatter.string(from: at),
            "properties": ["source": "cold"], "context": ["app_version": "1.0.0"],
        ]
    }

    static func body(_ events: [Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: ["events": events])
    }

    private func post(_ collector: CollectorProcess, _ body: Data, key: String? = key) throws -> RawHTTP.Response {
        var headers = [("Content-Type", "application/json")]
        if let key { headers.append(("X-Write-Key", key)) }
        return try collector.request("POST", "/v1/events", headers: headers, body: body)
    }

    private func total(_ collector: CollectorProcess) throws -> Int? {
        try collector.request("GET", "/api/events").json?["total"] as? Int
    }

    @Test func batchLevelErrors() throws {
        let collector = try CollectorProcess(["--events-write-key", Self.key])
        defer { collector.stop() }
        let one = try Self.body([Self.event()])
        let noKey = try post(collector, one, key: nil)
        #expect(noKey.status == 401)
        #expect(noKey.json?["code"] as? String == "invalid_write_key")
        #expect(try post(collector, one, key: "aso_wk_other").status == 401)
        for bad in [Data("not json".utf8), Data("[]".utf8), Data(#"{"events":{}}"#.utf8), try Self.body([])] {
            let response = try post(collector, bad)
            #expect(response.status == 400)
            #expect(response.json?["code"] as? String == "invalid_body")
        }
        let tooMany = try post(collector, Self.body((0..<101).map { _ in Self.event() }))
        #expect(tooMany.status == 400)
        #expect(try post(collector, Self.body((0..<100).map { _ in Self.event() })).status == 200)
        let big = try post(collector, Data(repeating: UInt8(ascii: " "), count: (1 << 20) + 1))
        #expect(big.status == 413)
        #expect(big.json?["code"] as? String == "payload_too_large")
        #expect(try total(collector) == 100)
    }

    @Test func perEventRejectionsAndClamping() throws {
        let collector = try CollectorProcess(["--events-write-key", Self.key])
        defer { collector.stop() }
        var events: [Any] = [Self.event("first_ok")]
        func with(_ changes: [String: Any?]) -> [String: Any] {
            var event = Self.event()
            for (key, value) in changes { event[key] = value }
            return event
        }
        let cases: [(Any, String)] = [
            ("a string", "invalid_event"),
            (with(["name": "bad name!"]), "invalid_name"),
            (with(["name": "$session_start"]), "reserved_name"),
            (with(["event_id": "nope"]), "invalid_id"),
            (with(["occurred_at": "2026-10-23 noon"]), "invalid_timestamp"),
            (with(["properties": ["nested": ["a": 1]]]), "invalid_properties"),
            (
                with(["properties": Dictionary(uniqueKeysWithValues: (0..<51).map { ("k\($0)", $0) })]),
                "too_many_properties"
            ),
            (
                with([
                    "properties": Dictionary(
                        uniqueKeysWithValues: (0..<9).map { ("k\($0)", String(repeating: "x", count: 1000)) })
                ]),
                "event_too_large"
            ),
        ]
        events += cases.map(\.0)
        let clampedID = UUID().uuidString.lowercased()
        events.append(Self.event("clamped_one", id: clampedID, at: Date().addingTimeInterval(-30 * 86400)))
        let response = try post(collector, Self.body(events))
        #expect(response.status == 200)
        let json = try #require(response.json)
        #expect(json["accepted"] as? Int == 2)
        let rejected = try #require(json["rejected"] as? [[String: Any]])
        #expect(rejected.map { $0["code"] as? String } == cases.map(\.1))
        #expect(rejected.map { $0["index"] as? Int } == Array(1...cases.count))
        #expect(rejected.allSatisfy { $0["message"] is String })
        let clamped = try #require(json["clamped"] as? [[String: Any]])
        #expect(clamped.count == 1)
        #expect(clamped.first?["index"] as? Int == events.count - 1)
        #expect(clamped.first?["event_id"] as? String == clampedID)
        let counts = try collector.request("GET", "/api/events").json?["by_name"] as? [String: Int]
        #expect(counts == ["first_ok": 1, "clamped_one": 1])
    }

    @Test func duplicatesAreAcceptedButStoredOnceAcrossRestarts() throws {
        let collector = try CollectorProcess(["--events-write-key", Self.key])
        let event = Self.event("paywall_viewed")
        let first = try post(collector, Self.body([event, event]))
        #expect(first.json?["accepted"] as? Int == 2)
        #expect(try total(collector) == 1)
        #expect(collector.stop() == 0)
        let restarted = try CollectorProcess(["--events-write-key", Self.key], dataDirectory: collector.dataDirectory)
        defer { restarted.stop() }
        #expect(try total(restarted) == 1)
        let again = try post(restarted, Self.body([event]))
        #expect(again.json?["accepted"] as? Int == 1)
        #expect(try total(restarted) == 1)
        let lines = try String(
            contentsOf: restarted.dataDirectory.appendingPathComponent("events/events.jsonl"), encoding: .utf8)
        #expect(lines.split(separator: "\n").count == 1)
    }

    @Test func rateLimitGives429WithRetryAfterAndStoresNothing() throws {
        let collector = try CollectorProcess(["--events-rate-per-key", "5"])
        defer { collector.stop() }
        #expect(try post(collector, Self.body((0..<5).map { _ in Self.event() })).status == 200)
        let limited = try post(collector, Self.body([Self.event("over_limit")]))
        #expect(limited.status == 429)
        #expect(limited.json?["code"] as? String == "rate_limited")
        let retryAfter = try #require(limited.headers["retry-after"].flatMap { Int($0) })
        #expect(retryAfter >= 1 && retryAfter <= 60)
        #expect(try total(collector) == 5)
        // Another key has its own bucket.
        #expect(try post(collector, Self.body([Self.event()]), key: "another").status == 200)
    }

    @Test func perInstallLimit() throws {
        let collector = try CollectorProcess(["--events-rate-per-install", "3"])
        defer { collector.stop() }
        #expect(try post(collector, Self.body((0..<4).map { _ in Self.event() })).status == 429)
        #expect(try post(collector, Self.body((0..<3).map { _ in Self.event() })).status == 200)
    }

    @Test func injectedFailuresForRetryTests() throws {
        let collector = try CollectorProcess(["--fail-next", "2", "500"])
        defer { collector.stop() }
        let (id, report) = try Fixtures.variant()
        let upload = {
            try collector.request("POST", "/api/reports", headers: [("X-Crash-Report-ID", id)], body: report)
        }
        #expect(try upload().status == 500)
        let second = try post(collector, Self.body([Self.event()]))
        #expect(second.status == 500)
        #expect(second.json?["code"] as? String == "server_error")
        #expect(try upload().status == 201)
        let armed = try collector.request("POST", "/control/fail-next?count=1&status=429&retry_after=7")
        #expect(armed.status == 200)
        let limited = try post(collector, Self.body([Self.event()]))
        #expect(limited.status == 429)
        #expect(limited.headers["retry-after"] == "7")
        #expect(try post(collector, Self.body([Self.event()])).status == 200)
        #expect(try total(collector) == 1)

        let fromEnvironment = try CollectorProcess(environment: ["CRASH_COLLECTOR_FAIL_NEXT": "1 503"])
        defer { fromEnvironment.stop() }
        let unavailable = try fromEnvironment.request("POST", "/api/reports", body: report)
        #expect(unavailable.status == 503)
        #expect(unavailable.headers["retry-after"] == "1")
    }
}
