import CrashReporterSupport
import Foundation
import Testing

@testable import Tracking
@testable import TrackingEventsAPI

@Suite("Wire format")
struct EventsAPIJSONTests {
    func decode(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    func event(_ parameters: [String: TrackingValue], name: String = "order_placed") -> AnalyticsEvent {
        AnalyticsEvent(
            name: name, parameters: parameters, occurredAt: 1_792_670_671.512,
            installID: "C5E1B0B2-4F7A-4E0F-9C1D-2A6B7E8F9012", consentEpoch: 1)
    }

    @Test("an event has the API's fields, typed properties and the context")
    func fields() throws {
        let context = EventsAPIWire.encodeContext([("app_version", "2.4.0"), ("build", nil), ("locale", "en_US")])
        let e = event(["items": 3, "price": 39.99, "express": true, "plan": "pro \"yearly\"\n"])
        let object = try decode(try #require(EventsAPIWire.encode(e, context: context)))
        #expect(object["event_id"] as? String == e.id.lowercased())
        #expect(object["name"] as? String == "order_placed")
        #expect(object["anonymous_id"] as? String == "C5E1B0B2-4F7A-4E0F-9C1D-2A6B7E8F9012")
        #expect(object["occurred_at"] as? String == "2026-10-22T12:04:31.512Z")
        let properties = try #require(object["properties"] as? [String: Any])
        #expect(properties["items"] as? Int == 3)
        #expect(properties["price"] as? Double == 39.99)
        #expect(properties["express"] as? Bool == true)
        #expect(properties["plan"] as? String == "pro \"yearly\"\n")
        #expect(object["context"] as? [String: String] == ["app_version": "2.4.0", "locale": "en_US"])
        #expect(object["user_id"] == nil)
    }

    @Test("control characters are escaped and come back intact")
    func controlCharacters() throws {
        let text = "a\u{01}b\u{1F}c\td\\e\"f"
        let bytes = try #require(EventsAPIWire.encode(event(["t": .string(text)]), context: []))
        #expect(String(decoding: bytes, as: UTF8.self).contains(#"\u0001b\u001fc"#))
        let properties = try #require(try decode(bytes)["properties"] as? [String: Any])
        #expect(properties["t"] as? String == text)
    }

    @Test("event ids are distinct version 4 UUIDs, lowercase on the wire")
    func eventIDs() throws {
        let ids = (0..<10_000).map { _ in AnalyticsEvent(name: "e", parameters: [:], installID: "i", consentEpoch: 1).id
        }
        #expect(Set(ids).count == ids.count)
        for id in ids.prefix(100) {
            let text = try #require(UUID(uuidString: id)).uuidString
            #expect(Array(text)[14] == "4")
            #expect("89AB".contains(Array(text)[19]))
            #expect(id == text.lowercased())
        }
        // An id given in upper case goes on the wire in lower case.
        let upper = AnalyticsEvent(
            id: ids[0].uppercased(), name: "e", parameters: [:], installID: "i", consentEpoch: 1)
        let object = try decode(try #require(EventsAPIWire.encode(upper, context: [])))
        #expect(object["event_id"] as? String == ids[0])
    }

    @Test(
        "an event whose id is not a UUID cannot be encoded", arguments: ["", "order-1", "{" + UUID().uuidString + "}"])
    func invalidIDs(_ id: String) {
        let e = AnalyticsEvent(id: id, name: "e", parameters: [:], installID: "i", consentEpoch: 1)
        #expect(EventsAPIWire.encode(e, context: []) == nil)
    }

    @Test("an event is encoded once into its queue line: `<epoch> <event_id> <json>\\n`")
    func queueLine() throws {
        for epoch: UInt64 in [0, 1, 10, 12_345, .max] {
            for parameters: [String: TrackingValue] in [[:], ["n": 1], ["a": "x", "b": true, "c": 2.5]] {
                let e = AnalyticsEvent(name: "line", parameters: parameters, installID: "install", consentEpoch: epoch)
                let id = try #require(UUIDBytes(e.id))
                let context = EventsAPIWire.encodeContext([("device_model", "x86_64")])
                let json = try #require(EventsAPIWire.encode(e, context: context))
                let queued = try #require(EventsAPIWire.queuedEvent(e, id: id, context: context))
                let expected = "\(epoch) \(e.id) " + String(decoding: json, as: UTF8.self) + "\n"
                #expect(String(decoding: queued.line, as: UTF8.self) == expected)
                #expect(queued.json == json)
                #expect(queued == QueuedEvent(id: id, epoch: epoch, json: json))
            }
        }
        // Every byte value through the hex table, into the queue line's prefix.
        for start in stride(from: 0, to: 256, by: 16) {
            var bytes = (0..<16).map { UInt8(start + $0) }
            let id = bytes.withUnsafeMutableBytes { $0.load(as: UUID.self) }
            var writer = JSONWriter()
            QueuedEvent.appendPrefix(epoch: 7, id: UUIDBytes(tuple: id.uuid), to: &writer)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == "7 " + id.uuidString.lowercased() + " ")
        }
    }

    @Test("non-finite numbers become null")
    func nonFinite() throws {
        let object = try decode(try #require(EventsAPIWire.encode(event(["x": .double(.nan)]), context: [])))
        let properties = try #require(object["properties"] as? [String: Any])
        #expect(properties["x"] is NSNull)
    }

    @Test("at most 50 properties, keys of 1 to 64 characters")
    func propertyLimits() throws {
        var parameters: [String: TrackingValue] = [:]
        for n in 0..<60 { parameters[String(format: "k%02d", n)] = .int(n) }
        parameters[String(repeating: "k", count: 65)] = 1
        parameters[""] = 1
        let object = try decode(try #require(EventsAPIWire.encode(event(parameters), context: [])))
        let properties = try #require(object["properties"] as? [String: Any])
        #expect(properties.count == 50)
        #expect(properties["k00"] != nil && properties["k49"] != nil && properties["k50"] == nil)
    }

    @Test("an event over 8 KB loses properties until it fits")
    func eventSizeLimit() throws {
        var parameters: [String: TrackingValue] = [:]
        for n in 0..<40 { parameters["p\(n)"] = .string(String(repeating: "v", count: 1000)) }
        let bytes = try #require(EventsAPIWire.encode(event(parameters), context: []))
        #expect(bytes.count <= EventLimits.maxEventBytes)
        let properties = try #require(try decode(bytes)["properties"] as? [String: Any])
        #expect(properties.count >= 5 && properties.count < 40)
    }

    @Test("a batch body is {\"events\": [...]}")
    func batch() throws {
        let one = try #require(EventsAPIWire.encode(event([:]), context: []))
        let body = EventsAPIWire.batchBody([one, one])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        #expect((object["events"] as? [Any])?.count == 2)
        #expect(EventsAPIWire.batchBody([one]).count == one.count + EventsAPIWire.batchBodyOverhead)
    }

    @Test("context values are cut to 64 characters; empty ones are left out")
    func contextBounds() throws {
        let context = EventsAPIWire.encodeContext([("os_version", String(repeating: "9", count: 100)), ("build", "")])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(context)) as? [String: String])
        #expect(object == ["os_version": String(repeating: "9", count: 64)])
        #expect(EventsAPIWire.encodeContext([("build", nil)]).isEmpty)
    }

    @Test("Linux context: locale from the environment, no host name")
    func linuxContext() {
        #expect(LinuxContext.locale(environment: ["LANG": "de_DE.UTF-8"]) == "de_DE")
        #expect(LinuxContext.locale(environment: ["LC_ALL": "fr_FR@euro", "LANG": "en_US"]) == "fr_FR")
        #expect(LinuxContext.locale(environment: ["LANG": "C.UTF-8"]) == nil)
        #expect(LinuxContext.locale(environment: [:]) == nil)
        let resolved = ResolvedEventsAPIOptions(EventsAPIOptions(appVersion: "1.0"), environment: [:])
        let text = String(decoding: resolved.context, as: UTF8.self)
        let host = ProcessInfo.processInfo.hostName
        #expect(!host.isEmpty && !text.contains(host))
        #expect(text.contains("\"device_model\""))
        #expect(text.contains("\"environment\":\"debug\""))
    }

    @Test("endpoint from a base URL or EVENTS_API_URL, key from EVENTS_WRITE_KEY")
    func endpointAndKey() {
        let fromEnv = ResolvedEventsAPIOptions(
            EventsAPIOptions(),
            environment: ["EVENTS_API_URL": "http://127.0.0.1:8080", "EVENTS_WRITE_KEY": "aso_wk_1"])
        #expect(fromEnv.endpoint?.description == "http://127.0.0.1:8080/v1/events")
        #expect(fromEnv.writeKey == "aso_wk_1")
        let fromCode = ResolvedEventsAPIOptions(
            EventsAPIOptions(baseURL: "https://e.example/v1/", writeKey: "k"),
            environment: ["EVENTS_API_URL": "http://ignored", "EVENTS_WRITE_KEY": "ignored"])
        #expect(fromCode.endpoint?.description == "https://e.example/v1/events")
        #expect(fromCode.writeKey == "k")
        #expect(EventsAPIOptions.eventsURL(base: "http://h/v1/events") == "http://h/v1/events")
        #expect(ResolvedEventsAPIOptions(EventsAPIOptions(), environment: [:]).endpoint == nil)
        #expect(ResolvedEventsAPIOptions(EventsAPIOptions(), environment: [:]).configurationError == nil)
    }
}

@Suite("Timestamps")
struct TimestampTests {
    /// `occurred_at` as the wire format writes it for an event tracked at `seconds`.
    func occurredAt(_ seconds: Double) throws -> String {
        let e = AnalyticsEvent(name: "t", parameters: [:], occurredAt: seconds, installID: "i", consentEpoch: 1)
        let json = try #require(EventsAPIWire.encode(e, context: []))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
        return try #require(object["occurred_at"] as? String)
    }

    @Test(
        "known instants",
        arguments: [
            (0.0, "1970-01-01T00:00:00.000Z"),
            (951_782_400.0, "2000-02-29T00:00:00.000Z"),
            (1_709_251_199.999, "2024-02-29T23:59:59.999Z"),
            (4_102_444_800.0, "2100-01-01T00:00:00.000Z"),
            (-1.5, "1969-12-31T23:59:58.500Z"),
        ])
    func known(_ pair: (Double, String)) throws {
        #expect(try occurredAt(pair.0) == pair.1)
    }

    @Test("the cached day agrees with the calendar arithmetic, on repeats and alternations")
    func cachedDay() throws {
        for days in [0, 1, 59, 60, 11_016, 19_782, 19_782, 20_000, 19_782, 20_000, 20_000, 146_096, -1, -1, 7, 7] {
            let date = CivilDate(daysSince1970: days)
            func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let expected = "\(date.year)-\(two(date.month))-\(two(date.day))T00:00:00.000Z"
            #expect(try occurredAt(Double(days) * 86_400) == expected, "day \(days)")
        }
    }

    @Test("agrees with gmtime over many instants")
    func matchesGmtime() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let seconds = Int.random(in: 0...4_102_444_800, using: &generator)
            var t = time_t(seconds)
            var parts = tm()
            gmtime_r(&t, &parts)
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d.000Z", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
            #expect(try occurredAt(Double(seconds)) == expected)
        }
    }
}
