import Foundation
import Testing

/// Issue 23 end to end: the real `crash-test` with only TelemetryDeck's or only PostHog's
/// variables set tracks through that provider, and the real `crash-collector` receives it on
/// its stand-in for the vendor's API. The consent story and the planted secrets, seen from the
/// files on disk and the collector's store; once per backend.
@Suite("Tracking end to end: crash-test to the collector as TelemetryDeck and as PostHog", .serialized)
struct VendorTrackingEndToEndTests {
    enum Backend: String, CaseIterable, CustomStringConvertible {
        case telemetryDeck = "TelemetryDeck"
        case postHog = "PostHog"
        var description: String { rawValue }

        /// The variables that pick this backend, pointed at the collector.
        func environment(_ collector: TrackingCollector) -> [String: String] {
            let base = "http://127.0.0.1:\(collector.port)"
            return switch self {
            case .telemetryDeck:
                ["TELEMETRYDECK_APP_ID": "E2E-APP", "TELEMETRYDECK_URL": base, "CRASH_TEST_ANALYTICS_TIMEOUT": "20"]
            case .postHog:
                [
                    "POSTHOG_API_KEY": TrackingCollector.writeKey, "POSTHOG_HOST": base,
                    "CRASH_TEST_ANALYTICS_TIMEOUT": "20",
                ]
            }
        }

        /// The name an event of crash-test's arrives under.
        func name(_ event: String) -> String {
            guard self == .telemetryDeck else { return event }
            return event.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: ".")
        }

        var queueFile: String { self == .postHog ? "analytics/posthog.queue" : "analytics/telemetrydeck.queue" }
    }

    @Test(
        "unknown: nothing; grant: the run's events; deny: the opt-out event, then nothing; no secret sent",
        arguments: Backend.allCases)
    func consentStory(_ backend: Backend) async throws {
        let sandbox = try CrashSandbox(binary: Binaries.crashTest(build: "debug"))
        defer { sandbox.remove() }
        let collector = try await TrackingCollector()
        do {
            try await story(backend, sandbox, collector)
        } catch {
            await collector.stop()
            throw error
        }
        await collector.stop()
    }

    func story(_ backend: Backend, _ sandbox: CrashSandbox, _ collector: TrackingCollector) async throws {
        let env = backend.environment(collector)

        try await sandbox.succeed(["run", "--note", CrashSandbox.plantedNote], environment: env)
        try await sandbox.succeed(["track", "probe_event", "n=1"], environment: env)
        #expect(collector.events.isEmpty, "sent without consent: \(collector.names())")
        #expect(
            sandbox.stateEntries.allSatisfy(TrackingEndToEndTests.isAllowedWithoutAnalytics), "\(sandbox.stateEntries)")

        let grant = try await sandbox.succeed(["consent", "analytics", "grant"], environment: env)
        #expect(grant.stdout.contains("analytics granted, 0 events queued"), "\(grant.stdout)")
        #expect(collector.names() == [backend.name("analytics_opted_in")])
        #expect(sandbox.stateEntries.contains(backend.queueFile), "\(sandbox.stateEntries)")
        let run = try await sandbox.succeed(["run", "--note", CrashSandbox.plantedNote], environment: env)
        #expect(run.stdout.contains("analytics granted, 0 events queued"), "\(run.stdout)")
        #expect(collector.count(backend.name("app_launched")) == 1)
        #expect(collector.count(backend.name("step_completed")) == 5)
        #expect(collector.count(backend.name("run_finished")) == 1)
        let installID = try String(contentsOf: sandbox.installIDFile, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let ids = Set(collector.events.map { $0.anonymousID.lowercased() })
        #expect(ids.count == 1, "one install, one id: \(ids)")
        // PostHog is told the install id; TelemetryDeck only its hash.
        #expect(ids.contains(installID) == (backend == .postHog))

        let before = collector.events.count
        try await sandbox.succeed(["consent", "analytics", "deny"], environment: env)
        #expect(collector.count(backend.name("analytics_opted_out")) == 1, "\(collector.names())")
        #expect(!FileManager.default.fileExists(atPath: sandbox.analyticsDirectory.path), "queue and install id gone")
        try await sandbox.succeed(["run"], environment: env)
        try await sandbox.succeed(["track", "after_deny"], environment: env)
        #expect(collector.events.count == before + 1, "sent after deny: \(collector.names().suffix(5))")

        let store = collector.storeText
        for secret in CrashSandbox.secrets + [installID].filter({ _ in backend == .telemetryDeck }) {
            #expect(!store.contains(secret), "the collector stored \(secret)")
        }
    }
}
