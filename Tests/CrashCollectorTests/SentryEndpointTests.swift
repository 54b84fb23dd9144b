import CrashReportFormat
import Foundation
import Testing

/// The Sentry envelope endpoint, end to end.
@Suite struct SentryEndpointTests {
    static let key = "0123456789abcdef0123456789abcdef"

    static func envelope(eventID: String = UUID().uuidString.lowercased()) -> Data {
        let event =
            #"{"event_id":"\#(eventID.replacingOccurrences(of: "-", with: ""))","platform":"native","level":"fatal"}"#
        let text =
            #"{"event_id":"\#(eventID)","dsn":"http://\#(key)@127.0.0.1/1"}"# + "\n"
            + #"{"type":"event","length":\#(event.utf8.count),"content_type":"application/json"}"# + "\n" + event + "\n"
        return Data(text.utf8)
    }

    static func auth(_ key: String) -> (String, String) {
        ("X-Sentry-Auth", "Sentry sentry_version=7, sentry_client=test/1.0, sentry_key=\(key)")
    }

    @Test func authIsChecked() throws {
        let collector = try CollectorProcess(["--sentry-key", Self.key])
        defer { collector.stop() }
        let missing = try collector.request("POST", "/api/1/envelope/", body: Self.envelope())
        #expect(missing.status == 401)
        let wrong = try collector.request(
            "POST", "/api/1/envelope/", headers: [Self.auth("nope")], body: Self.envelope())
        #expect(wrong.status == 401)
        #expect(collector.files(in: "events-sentry", suffix: ".json").isEmpty)
        let byQuery = try collector.request("POST", "/api/1/envelope/?sentry_key=\(Self.key)", body: Self.envelope())
        #expect(byQuery.status == 200)
    }

    @Test func eventsAreStoredOnceByEventID() throws {
        let collector = try CollectorProcess(["--sentry-key", Self.key])
        defer { collector.stop() }
        let id = UUID().uuidString.lowercased()
        let hex = id.replacingOccurrences(of: "-", with: "")
        let envelope = Self.envelope(eventID: id)
        let first = try collector.request("POST", "/api/42/envelope/", headers: [Self.auth(Self.key)], body: envelope)
        #expect(first.status == 200)
        #expect(first.json?["id"] as? String == hex)
        // Gzip-encoded, as the reporter sends it; the same id again.
        let again = try collector.request(
            "POST", "/api/42/envelope", headers: [Self.auth(Self.key), ("Content-Encoding", "gzip")],
            body: Data(try Gzip.compress(envelope)))
        #expect(again.status == 200)
        #expect(collector.files(in: "events-sentry", suffix: ".json") == ["\(hex).json"])
        let stored = try Data(contentsOf: collector.dataDirectory.appendingPathComponent("events-sentry/\(hex).json"))
        let event = try JSONSerialization.jsonObject(with: stored) as? [String: Any]
        #expect(event?["level"] as? String == "fatal")
    }

    @Test func badEnvelopesAre400() throws {
        let collector = try CollectorProcess(["--sentry-key", Self.key])
        defer { collector.stop() }
        for body in [
            "not an envelope", "{}\n{\"type\":\"event\",\"length\":999}\n{}\n", "{}\n{\"type\":\"event\"}\nnot json\n",
            "{}\n{\"type\":\"event\"}\n{\"level\":\"fatal\"}\n",
        ] {
            let response = try collector.request(
                "POST", "/api/1/envelope/", headers: [Self.auth(Self.key)], body: Data(body.utf8))
            #expect(response.status == 400, "\(body)")
            #expect(response.json?["detail"] is String)
        }
        let badGzip = try collector.request(
            "POST", "/api/1/envelope/", headers: [Self.auth(Self.key), ("Content-Encoding", "gzip")],
            body: Data("xx".utf8))
        #expect(badGzip.status == 400)
        #expect(try collector.request("GET", "/api/1/envelope/").status == 405)
        #expect(collector.files(in: "events-sentry", suffix: ".json").isEmpty)
    }

    /// The envelope is read by `SentryEnvelopeParser`; the collector adds its own checks on
    /// event ids and the number of items.
    @Test func sharedParserRulesAndTheCollectorsOwnChecks() throws {
        let collector = try CollectorProcess(["--sentry-key", Self.key])
        defer { collector.stop() }
        func post(_ text: String) throws -> RawHTTP.Response {
            try collector.request("POST", "/api/1/envelope/", headers: [Self.auth(Self.key)], body: Data(text.utf8))
        }
        let hex = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        // An item without length runs to the next newline; other item types are accepted and dropped.
        let accepted = try post(
            "{}\n{\"type\":\"attachment\",\"length\":3}\na\nb\n{\"type\":\"event\"}\n{\"event_id\":\"\(hex)\"}")
        #expect(accepted.status == 200)
        #expect(accepted.json?["id"] as? String == hex)
        #expect(collector.files(in: "events-sentry", suffix: ".json") == ["\(hex).json"])
        let refused = [
            "{}\n{\"type\":\"event\",\"length\":2}\n{}\n\n",  // a blank line where an item header belongs
            "{\"event_id\":5}\n{\"type\":\"event\"}\n{}\n",  // an event id that is not a string
            "{}\n{\"type\":\"event\"}\n{\"event_id\":\"../../etc/passwd\"}\n",
            "{}\n" + String(repeating: "{\"type\":\"session\"}\n{}\n", count: 1001),
        ]
        for text in refused {
            let response = try post(text)
            #expect(response.status == 400, "\(text.prefix(80))")
            #expect((response.json?["detail"] as? String)?.hasPrefix("invalid envelope: ") == true)
        }
        #expect(collector.files(in: "events-sentry", suffix: ".json") == ["\(hex).json"])
    }
}
