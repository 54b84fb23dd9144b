import CrashReporterSupport
import Foundation
import TestSupport
import Testing
import Tracking

@testable import TrackingEventsAPI

/// Each provider's request beside the one the vendor's official Python client (PyPI `posthog`,
/// `telemetrydeckpy`; Scripts/vendor_clients.py) sends for the same event, both caught by one
/// loopback receiver: the same path, the client's keys with the same JSON types, the same batch
/// shape. The clients are installed into a venv under .build on first use (`VendorClients`).
@Suite("TelemetryDeck and PostHog requests against the vendors' official clients", .serialized)
struct VendorClientParityTests {
    /// What the PostHog client adds to `properties` that the provider leaves out on purpose:
    /// the client's own identity and its machine's operating system and runtime. The provider
    /// sends `$lib` only, which names the library, never the machine.
    static let postHogClientOnlyProperties: Set<String> = [
        "$lib_version", "$python_runtime", "$python_version", "$os", "$os_version", "$os_distro", "$is_server",
    ]

    /// The event both senders send: the tracker's, as delivered by the provider.
    struct Sent {
        var path: String
        var body: JSONValue
        var event: JSONValue
        var installID: String
    }

    /// Tracks `order_placed` through a granted tracker and returns the request that carried it.
    func sendOurs(_ backend: VendorBackend, server: FaultServer, dir: TempDirectory) async throws -> Sent {
        let provider = backend.provider(state: dir.path, url: server.baseURL)
        let tracker = Tracker(stateDirectory: dir.path, providers: [provider])
        try tracker.setAnalyticsConsent(granted: true)
        tracker.track(NamedEvent("order_placed", parameters: ["items": 3, "express": false, "plan": "pro"]))
        await tracker.flush()
        await tracker.shutdown(within: .seconds(5))
        let request = try #require(server.requests.first)
        let bytes = try #require(server.body(0))
        let body = try JSON.parse(Array(bytes))
        let event = try #require(
            backend.events(in: bytes).first { backend.name(of: $0) == backend.wireName("order_placed") })
        let installID = try #require(tracker.installID)
        return Sent(path: request["path"] as? String ?? "", body: body, event: event, installID: installID)
    }

    /// `theirs`' members, each present in `ours` with the same JSON type, but for `except`.
    func expectSameMembers(
        _ ours: JSONValue, _ theirs: JSONValue, except: Set<String> = [], _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let mine = ours.objectValue ?? [:]
        for (key, value) in theirs.objectValue ?? [:] where !except.contains(key) {
            let type = mine[key].map { $0.typeName == "integer" ? "number" : $0.typeName }
            let expected = value.typeName == "integer" ? "number" : value.typeName
            #expect(
                type == expected, "\(what).\(key): ours \(type ?? "missing"), the client's \(expected)",
                sourceLocation: sourceLocation)
        }
    }

    @Test("PostHog: /batch/ as posthog-python sends it")
    func postHogMatchesOfficialClient() async throws {
        let dir = TempDirectory()
        let server = try FaultServer(responses: ["200"])
        let ours = try await sendOurs(.postHog, server: server, dir: dir)
        try VendorClients.send(
            backend: "posthog", url: server.baseURL,
            event: [
                "name": "order_placed", "id": ours.event["uuid"]?.stringValue ?? "", "install_id": ours.installID,
                "timestamp": ours.event["timestamp"]?.stringValue ?? "", "api_key": VendorBackend.apiKey,
                "parameters": ["items": 3, "express": false, "plan": "pro"],
            ])
        let requests = server.requests
        let theirsRequest = try #require(
            requests.last { ($0["headers"] as? [String: String])?["user-agent"]?.hasPrefix("posthog-python") == true })
        let theirsBytes = try #require(server.body(theirsRequest["n"] as? Int ?? -1))
        let theirsBody = try JSON.parse(Array(theirsBytes))
        let theirs = try #require(theirsBody["batch"]?.arrayValue?.first)

        #expect(ours.path == "/batch/")
        #expect(theirsRequest["path"] as? String == ours.path)
        expectSameMembers(ours.body, theirsBody, "body")
        #expect(ours.body["api_key"] == theirsBody["api_key"])
        #expect(ours.body["batch"]?.arrayValue?.count == 2, "analytics_opted_in and order_placed in one batch")
        expectSameMembers(ours.event, theirs, "event")
        for key in ["event", "distinct_id", "uuid"] { #expect(ours.event[key] == theirs[key], "\(key)") }
        expectSameMembers(
            ours.event["properties"]!, theirs["properties"]!, except: Self.postHogClientOnlyProperties, "properties")
        for key in ["items", "express", "plan", "$process_person_profile", "$geoip_disable"] {
            #expect(ours.event["properties"]?[key] == theirs["properties"]?[key], "properties.\(key)")
        }
        #expect(ours.event["properties"]?["$process_person_profile"] == .bool(false))
        #expect(ours.event["properties"]?["$geoip_disable"] == .bool(true))
        // The same instant, each in its own ISO 8601 form.
        #expect(ours.event["timestamp"]?.stringValue?.hasSuffix("Z") == true)
        #expect(
            theirs["timestamp"]?.stringValue?.hasPrefix(String(ours.event["timestamp"]!.stringValue!.prefix(19)))
                == true)
    }

    @Test("TelemetryDeck: /v2/ signals as telemetrydeckpy sends them")
    func telemetryDeckMatchesOfficialClient() async throws {
        let dir = TempDirectory()
        let server = try FaultServer(responses: ["200"])
        let ours = try await sendOurs(.telemetryDeck, server: server, dir: dir)
        // The client takes the user hash as given: the script hashes as TelemetryDeck's SDKs do.
        let clientUser = SHA256.hex(ours.installID + VendorBackend.salt)
        try VendorClients.send(
            backend: "telemetrydeck", url: server.baseURL,
            event: [
                "app_id": VendorBackend.appID, "client_user": clientUser,
                "session_id": ours.event["sessionID"]?.stringValue ?? "", "type": "Order.Placed",
                "parameters": ["items": 3, "express": false, "plan": "pro"],
            ])
        let theirsRequest = try #require(server.requests.last)
        let theirsBytes = try #require(server.body(theirsRequest["n"] as? Int ?? -1))
        let theirsBody = try JSON.parse(Array(theirsBytes))
        let theirs = try #require(theirsBody.arrayValue?.first)

        #expect(ours.path == "/v2/")
        #expect(theirsRequest["path"] as? String == ours.path)
        #expect(ours.body.typeName == "array" && theirsBody.typeName == "array", "a batch is an array of signals")
        #expect(ours.body.arrayValue?.count == 2, "analytics_opted_in and order_placed in one batch")
        expectSameMembers(ours.event, theirs, "signal")
        for key in ["appID", "clientUser", "sessionID", "type", "payload"] {
            #expect(ours.event[key] == theirs[key], "\(key): ours \(ours.event[key]?.description ?? "missing")")
        }
        // A debug build of the tests: test mode, as the client was told.
        #expect(ours.event["isTestMode"] == theirs["isTestMode"])
        #expect(ours.event["clientUser"]?.stringValue?.count == 64)
        #expect(ours.event["clientUser"]?.stringValue?.contains(ours.installID) == false)
        let headers = try #require(server.requests.first?["headers"] as? [String: String])
        #expect(headers["content-type"] == (theirsRequest["headers"] as? [String: String])?["content-type"])
    }
}
