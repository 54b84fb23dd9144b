import CrashReporterSupport
import Foundation
import TestSupport
import Testing
import Tracking

@testable import TrackingEventsAPI

/// The TelemetryDeck and PostHog providers against a real receiver on loopback
/// (Scripts/fault_server.py): the consent story, personal data, and a 503 before a 200.
@Suite("TelemetryDeck and PostHog providers on loopback", .serialized)
struct VendorProviderTests {
    static let plantedEmail = "jane.planted@example.com"
    static let plantedEnvironmentValue = "planted-env-secret-Qx81"

    @Test("consent unknown: nothing is sent and nothing is stored", arguments: VendorBackend.allCases)
    func unknownConsentSendsNothing(_ backend: VendorBackend) async throws {
        let dir = TempDirectory()
        let server = try FaultServer(responses: ["200"])
        let provider = backend.provider(state: dir.path, url: server.baseURL)
        let tracker = Tracker(stateDirectory: dir.path, providers: [provider])
        for n in 0..<25 { tracker.track(NamedEvent("order_placed", parameters: ["n": .int(n)])) }
        await tracker.flush()
        await tracker.shutdown(within: .seconds(5))
        #expect(server.requests.isEmpty, "sent without consent: \(server.requests)")
        #expect(dir.files.isEmpty, "stored without consent: \(dir.files)")
    }

    @Test(
        "grant: the events arrive; deny: the opt-out event, then nothing, queue and install id gone",
        arguments: VendorBackend.allCases)
    func grantThenDeny(_ backend: VendorBackend) async throws {
        let dir = TempDirectory()
        let server = try FaultServer(responses: ["200"])
        let provider = backend.provider(state: dir.path, url: server.baseURL)
        let tracker = Tracker(stateDirectory: dir.path, providers: [provider])
        try tracker.setAnalyticsConsent(granted: true)
        for n in 0..<3 { tracker.track(NamedEvent("order_placed", parameters: ["n": .int(n)])) }
        await tracker.flush()
        let installID = try #require(tracker.installID)
        let delivered = server.batches(backend).flatMap(\.events)
        #expect(
            delivered.compactMap(backend.name(of:))
                == ["analytics_opted_in", "order_placed", "order_placed", "order_placed"].map(backend.wireName))
        let numbers = delivered.compactMap { backend.parameters(of: $0)["n"]?.numberValue.map { "\($0)" } }
        #expect(numbers == ["0", "1", "2"])
        #expect(dir.files.contains("analytics/install-id"))
        #expect(dir.files.contains("analytics/\(backend.rawValue).queue"))

        try tracker.setAnalyticsConsent(granted: false)
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/analytics"), "queue and install id gone")
        await tracker.shutdown(within: .seconds(5))
        let afterDeny = server.batches(backend).flatMap(\.events)
        #expect(afterDeny.count == delivered.count + 1)
        let farewell = try #require(afterDeny.last)
        #expect(backend.name(of: farewell) == backend.wireName(Tracker.optedOutEventName))
        switch backend {
        case .postHog: #expect(farewell["distinct_id"]?.stringValue == installID, "sent under the id it closes")
        case .telemetryDeck:
            #expect(farewell["clientUser"]?.stringValue == SHA256.hex(installID + VendorBackend.salt))
        }

        for n in 0..<25 { tracker.track(NamedEvent("order_placed", parameters: ["n": .int(n)])) }
        await tracker.flush()
        await provider.shutdown(within: .seconds(2))
        #expect(server.batches(backend).flatMap(\.events).count == afterDeny.count, "sent after deny")
        #expect(dir.files == ["analytics.consent"])
    }

    @Test(
        "no planted secret (an e-mail, the environment, the host name) in any request",
        arguments: VendorBackend.allCases)
    func plantedSecretsNeverSent(_ backend: VendorBackend) async throws {
        let dir = TempDirectory()
        let server = try FaultServer(responses: ["200"])
        let provider = backend.provider(
            state: dir.path, url: server.baseURL,
            extra: ["PLANTED_SECRET": Self.plantedEnvironmentValue, "HOME": "/home/planteduserq4x7"])
        let tracker = Tracker(stateDirectory: dir.path, providers: [provider])
        try tracker.setAnalyticsConsent(granted: true)
        var parameters = Planted.values
        parameters["note"] = .string("write to \(Self.plantedEmail) today")
        parameters["email"] = .string(Self.plantedEmail)
        parameters["name"] = "Jane Roe"
        parameters["$set"] = .string("{\"email\":\"\(Self.plantedEmail)\"}")
        parameters["plan"] = "pro"
        tracker.track(NamedEvent("pii_probe", parameters: parameters))
        await tracker.flush()
        await tracker.shutdown(within: .seconds(5))

        let probe = try #require(
            server.batches(backend).flatMap(\.events).first { backend.name(of: $0) == backend.wireName("pii_probe") })
        let sent = backend.parameters(of: probe)
        #expect(sent["plan"]?.stringValue == "pro", "the harmless parameter arrives")
        #expect(sent["note"]?.stringValue == "write to [redacted] today")
        for key in ["email", "name", "$set"] { #expect(sent[key] == nil, "\(key) was sent: \(sent[key]!)") }
        let text = server.receivedText
        let host = ProcessInfo.processInfo.hostName
        var secrets =
            Planted.fragments + [Self.plantedEmail, Self.plantedEnvironmentValue, "planteduserq4x7", "Jane Roe"]
        // A host name as short as "vm" would match by chance.
        if host.count >= 8 { secrets.append(host) }
        for secret in secrets { #expect(!text.contains(secret), "a request holds \(secret)") }
        if backend == .telemetryDeck {
            let stored = try? String(contentsOfFile: dir.path + "/analytics/install-id", encoding: .utf8)
            let installID = try #require(stored)
            #expect(
                !text.contains(installID.trimmingCharacters(in: .whitespacesAndNewlines)),
                "the install id itself was sent")
        }
    }

    @Test("503 then 200: a later run delivers every event exactly once", arguments: VendorBackend.allCases)
    func serviceUnavailableThenOK(_ backend: VendorBackend) async throws {
        let dir = TempDirectory()
        let server = try FaultServer(responses: ["503", "200"])
        do {
            let provider = backend.provider(state: dir.path, url: server.baseURL)
            let tracker = Tracker(stateDirectory: dir.path, providers: [provider])
            try tracker.setAnalyticsConsent(granted: true)
            for n in 0..<30 { tracker.track(NamedEvent("order_placed", parameters: ["n": .int(n)])) }
            await tracker.flush()
            await tracker.shutdown(within: .seconds(5))
            #expect(server.requests.map { $0["response"] as? String } == ["503"], "one attempt, then the backoff")
        }
        // The next run of the service: the queue on disk is sent.
        let provider = backend.provider(state: dir.path, url: server.baseURL)
        let tracker = Tracker(stateDirectory: dir.path, providers: [provider])
        await tracker.flush()
        await tracker.shutdown(within: .seconds(5))
        let accepted = server.batches(backend).filter { $0.status == "200" }.flatMap(\.events)
        let numbers = accepted.compactMap { backend.parameters(of: $0)["n"]?.numberValue.map { "\($0)" } }
        #expect(numbers.sorted() == (0..<30).map(String.init).sorted(), "each of the 30 once")
        #expect(accepted.filter { backend.name(of: $0) == backend.wireName(Tracker.optedInEventName) }.count == 1)
        if backend == .postHog {
            let ids = accepted.compactMap { $0["uuid"]?.stringValue }
            #expect(Set(ids).count == 31, "a uuid twice")
            let first = server.batches(backend)[0].events.compactMap { $0["uuid"]?.stringValue }
            #expect(Set(first).isSubset(of: Set(ids)), "resent with the uuids they were made with")
        }
        #expect(provider.queued == 0)
    }
}

extension AnalyticsProvider {
    /// What the provider holds in its queue.
    var queued: Int {
        switch self {
        case let provider as TelemetryDeckProvider: provider.queuedCount
        case let provider as PostHogProvider: provider.queuedCount
        default: -1
        }
    }
}
