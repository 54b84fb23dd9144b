import Foundation
import Testing

/// Sessions (docs/runs.md): as `session` items of a Sentry envelope and as `POST /api/sessions`,
/// validated before they are stored.
@Suite struct SessionEndpointTests {
    static func session(_ status: String = "exited", sid: String = UUID().uuidString.lowercased()) -> [String: Any] {
        [
            "sid": sid, "init": true, "started": "2026-11-29T13:20:05.123Z", "timestamp": "2026-11-29T14:02:11.000Z",
            "duration": 2525.877, "status": status, "errors": status == "exited" ? 0 : 1,
            "attrs": ["release": "1.4.2", "environment": "production"],
        ]
    }

    static func envelope(_ sessions: [[String: Any]]) throws -> Data {
        var text = #"{"sent_at":"2026-11-29T14:02:12.000Z","sdk":{"name":"t","version":"1"}}"# + "\n"
        for session in sessions {
            let payload = String(decoding: try JSONSerialization.data(withJSONObject: session), as: UTF8.self)
            text += #"{"type":"session","length":\#(payload.utf8.count)}"# + "\n" + payload + "\n"
        }
        return Data(text.utf8)
    }

    @Test func envelopeSessionsAreValidatedAndStoredOncePerSid() throws {
        let collector = try CollectorProcess([])
        defer { collector.stop() }
        let crashed = Self.session("crashed")
        let sid = (crashed["sid"] as! String).replacingOccurrences(of: "-", with: "")
        let ok = try collector.request("POST", "/api/7/envelope/", body: try Self.envelope([crashed, Self.session()]))
        #expect(ok.status == 200)
        #expect(collector.files(in: "sessions-sentry", suffix: ".json").count == 2)
        let again = try collector.request("POST", "/api/7/envelope/", body: try Self.envelope([crashed]))
        #expect(again.status == 200)
        #expect(collector.files(in: "sessions-sentry", suffix: ".json").contains("\(sid).json"))
        #expect(collector.files(in: "sessions-sentry", suffix: ".json").count == 2)

        var bad: [[String: Any]] = []
        for (key, value) in [
            ("status", "fine" as Any), ("sid", "42"), ("started", "yesterday"), ("errors", -1), ("attrs", [:] as Any),
            ("did", 7), ("duration", -3),
        ] {
            var session = Self.session()
            session[key] = value
            bad.append(session)
        }
        for session in bad {
            let refused = try collector.request("POST", "/api/7/envelope/", body: try Self.envelope([session]))
            #expect(refused.status == 400, "\(session)")
            let detail = refused.json?["detail"] as? String ?? ""
            #expect(detail.hasPrefix("invalid envelope: item 0: "), "\(detail)")
        }
        #expect(collector.files(in: "sessions-sentry", suffix: ".json").count == 2, "nothing invalid stored")
    }

    @Test func plainSessionsEndpoint() throws {
        let collector = try CollectorProcess([])
        defer { collector.stop() }
        let body = try JSONSerialization.data(withJSONObject: ["sessions": [Self.session(), Self.session("abnormal")]])
        let ok = try collector.request(
            "POST", "/api/sessions", headers: [("Content-Type", "application/json")], body: body)
        #expect(ok.status == 200)
        #expect(ok.json?["stored"] as? Int == 2)
        #expect(collector.files(in: "sessions", suffix: ".json").count == 2)
        var invalid = Self.session()
        invalid["status"] = "meh"
        let mixed = try JSONSerialization.data(withJSONObject: ["sessions": [Self.session(), invalid]])
        let refused = try collector.request("POST", "/api/sessions", body: mixed)
        #expect(refused.status == 400)
        #expect(
            refused.json?["error"] as? String
                == "session 1: status is not one of abnormal, crashed, errored, exited, ok")
        #expect(collector.files(in: "sessions", suffix: ".json").count == 2, "one bad session stores none")
        #expect(try collector.request("POST", "/api/sessions", body: Data("[]".utf8)).status == 400)
        #expect(try collector.request("GET", "/api/sessions").status == 405)
    }
}
