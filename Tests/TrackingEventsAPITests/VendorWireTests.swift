import CrashReporterSupport
import Foundation
import Testing
import Tracking

@testable import TrackingEventsAPI

/// The pieces of the TelemetryDeck and PostHog wire formats that need no server (the requests
/// themselves are checked against the vendors' clients in TrackingVendorTests).
@Suite("TelemetryDeck and PostHog wire pieces")
struct VendorWireTests {
    @Test("SHA-256 gives the digests of FIPS 180-4 and Python's hashlib, across block boundaries")
    func sha256Vectors() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hex(String(repeating: "a", count: 1_000))
                == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test(
        "signal types: PascalCase parts joined by dots",
        arguments: [
            ("order_placed", "Order.Placed"), ("analytics_opted_in", "Analytics.Opted.In"),
            ("Orders.Place", "Orders.Place"), ("step-completed", "Step.Completed"), ("a:b", "A.B"),
            ("x__y", "X.Y"), ("_lead", "Lead"), ("appLaunched", "AppLaunched"),
        ])
    func signalTypes(name: String, type: String) {
        #expect(TelemetryDeckProvider.signalType(for: name) == type)
    }

    @Test("keys that name a person, and every $ key, are never sent")
    func personalKeys() {
        for key in ["email", "E-Mail", "name", "First_Name", "username", "phone_number", "$set", "$ip", "$x"] {
            #expect(!PersonalKeys.allows(key), "\(key)")
        }
        for key in ["plan", "items", "screen_name", "emails_sent", "hostname_ok", "express"] {
            #expect(PersonalKeys.allows(key), "\(key)")
        }
    }

    @Test("a PostHog event over 8 KB loses properties until it fits, and keeps its privacy flags")
    func postHogEventBound() throws {
        let wire = PostHogWire(PostHogOptions(apiKey: "phc_x"), environment: [:])
        var parameters: [String: TrackingValue] = [:]
        for i in 0..<40 { parameters["p\(i)"] = .string(String(repeating: "v", count: 1_000)) }
        let event = AnalyticsEvent(name: "big", parameters: parameters, installID: "i", consentEpoch: 1)
        let bytes = try #require(wire.encodeAlone(event))
        #expect(bytes.count <= EventLimits.maxEventBytes)
        let object = try JSON.parse(bytes)
        let properties = try #require(object["properties"]?.objectValue)
        #expect(properties.count > 3 && properties.count < 43)
        #expect(properties["$process_person_profile"] == .bool(false))
        #expect(properties["$geoip_disable"] == .bool(true))
    }

    @Test("TelemetryDeck's app id is put in at send time, so a signal queued before it was set has it")
    func telemetryDeckAppIDAtSendTime() throws {
        let unconfigured = TelemetryDeckWire(TelemetryDeckOptions(), environment: [:])
        #expect(!unconfigured.canSend)
        let event = AnalyticsEvent(name: "order_placed", parameters: ["n": 1], installID: "i", consentEpoch: 1)
        let queued = try #require(unconfigured.encodeAlone(event))
        #expect(unconfigured.request(for: [queued], timeout: .seconds(1)) == nil)

        let configured = TelemetryDeckWire(
            TelemetryDeckOptions(),
            environment: ["TELEMETRYDECK_APP_ID": "APP-1", "TELEMETRYDECK_URL": "http://127.0.0.1:9"])
        let request = try #require(configured.request(for: [queued, queued], timeout: .seconds(1)))
        #expect(request.url.pathAndQuery == "/v2/")
        let signals = try #require(try JSON.parse(request.body).arrayValue)
        #expect(signals.count == 2)
        #expect(signals.allSatisfy { $0["appID"] == .string("APP-1") && $0["type"] == .string("Order.Placed") })
        #expect(signals.first?["clientUser"] == .string(SHA256.hex("i")))
    }

    @Test("URLs: TelemetryDeck's /v2/ and namespaces, PostHog's /batch/, defaults and bad values")
    func endpoints() {
        #expect(
            TelemetryDeckOptions.signalsURL(base: "https://nom.telemetrydeck.com")
                == "https://nom.telemetrydeck.com/v2/")
        #expect(TelemetryDeckOptions.signalsURL(base: "http://h/v2/") == "http://h/v2/")
        #expect(TelemetryDeckOptions.signalsURL(base: "http://h/v2/namespace/acme/") == "http://h/v2/namespace/acme/")
        #expect(PostHogOptions.batchURL(host: "https://eu.i.posthog.com/") == "https://eu.i.posthog.com/batch/")
        let defaults = TelemetryDeckWire(TelemetryDeckOptions(appID: "A"), environment: [:])
        #expect(defaults.endpoint?.host == "nom.telemetrydeck.com")
        let postHog = PostHogWire(PostHogOptions(apiKey: "k"), environment: [:])
        #expect(postHog.endpoint?.host == "us.i.posthog.com")
        let bad = PostHogWire(PostHogOptions(apiKey: "k"), environment: ["POSTHOG_HOST": "ftp://x"])
        #expect(bad.endpoint == nil && !bad.canSend)
        #expect(bad.configurationError?.contains("POSTHOG_HOST") == true)
    }
}
