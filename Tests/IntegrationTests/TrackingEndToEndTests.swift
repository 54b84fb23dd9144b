import Foundation
import Testing

/// Issue 4 end to end: the real `crash-test` tracks its events through the tracking façade
/// and the real `crash-collector` receives them on `POST /v1/events`. Consent, purging,
/// server faults, a `kill -9` in the middle of tracking, and personal data, each seen from
/// the files on disk and the collector's store.
@Suite("Tracking end to end: crash-test and crash-collector", .serialized)
struct TrackingEndToEndTests {
    let binary = Binaries.crashTest(build: "debug")

    /// A sandbox and a collector, removed after `body`.
    func withSetup(
        collector options: [String] = [], _ body: (CrashSandbox, TrackingCollector) async throws -> Void
    ) async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let collector = try await TrackingCollector(options)
        do {
            try await body(sandbox, collector)
        } catch {
            await collector.stop()
            throw error
        }
        await collector.stop()
    }

    /// Files that may exist in the state directory while analytics is not granted.
    static func isAllowedWithoutAnalytics(_ entry: String) -> Bool {
        // `runs/`: the crash reporter's run records (docs/runs.md), crash reporting's, not analytics'.
        ["crash-reporting.consent", "analytics.consent", "pending", "runs"].contains(entry)
            || entry.hasPrefix("pending/") || entry.hasPrefix("runs/")
    }

    // (a)

    @Test("consent unknown: nothing is sent and nothing but the choices is stored")
    func unknownConsentSendsNothing() async throws {
        try await withSetup { sandbox, collector in
            let env = collector.environment()
            try await sandbox.succeed(["run", "--note", "hello"], environment: env)
            try await sandbox.succeed(["track", "probe_event", "n=1"], environment: env)
            try await sandbox.succeed(["consent", "crash-reporting", "off"], environment: env)
            try await sandbox.succeed(["consent", "crash-reporting", "on"], environment: env)
            _ = try await sandbox.crash("segfault", environment: env)
            try await sandbox.succeed(["run"], environment: env)

            #expect(collector.events.isEmpty, "sent without consent: \(collector.names())")
            let entries = sandbox.stateEntries
            #expect(entries.allSatisfy(Self.isAllowedWithoutAnalytics), "stored without consent: \(entries)")
            #expect(!entries.contains("analytics.consent"), "nobody chose: no analytics choice file")
        }
    }

    // (b)

    @Test("grant: analytics_opted_in and the run's events arrive under one install id")
    func grantDelivers() async throws {
        try await withSetup { sandbox, collector in
            let env = collector.environment()
            let grant = try await sandbox.succeed(["consent", "analytics", "grant"], environment: env)
            #expect(grant.stdout.contains("crash-test: analytics granted"))
            #expect(collector.names() == ["analytics_opted_in"])
            let installID = try String(contentsOf: sandbox.installIDFile, encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(UUID(uuidString: installID) != nil)
            #expect(try String(contentsOf: sandbox.analyticsChoiceFile, encoding: .utf8) == "granted 1\n")

            let run = try await sandbox.succeed(["run"], environment: env)
            #expect(run.stdout.contains("analytics granted, 0 events queued"), "\(run.stdout)")
            #expect(collector.count("app_launched") == 1)
            #expect(collector.count("step_completed") == 5)
            #expect(collector.count("run_finished") == 1)
            let events = collector.events
            #expect(events.allSatisfy { $0.anonymousID.lowercased() == installID.lowercased() })
            let steps = events.filter { $0.name == "step_completed" }.compactMap { $0.properties["index"] as? Int }
            #expect(steps.sorted() == [0, 1, 2, 3, 4])
            let launched = events.first { $0.name == "app_launched" }
            #expect(launched?.properties["command"] as? String == "run")
        }
    }

    // (c)

    @Test("deny: analytics_opted_out arrives, the install id and the queue are gone, later runs send nothing")
    func denyPurges() async throws {
        try await withSetup { sandbox, collector in
            let env = collector.environment()
            try await sandbox.succeed(["consent", "analytics", "grant"], environment: env)
            try await sandbox.succeed(["run"], environment: env)
            let installID = try String(contentsOf: sandbox.installIDFile, encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            let before = collector.events.count

            let deny = try await sandbox.succeed(["consent", "analytics", "deny"], environment: env)
            #expect(deny.stdout.contains("crash-test: analytics denied"))
            let optedOut = collector.events.filter { $0.name == "analytics_opted_out" }
            #expect(optedOut.count == 1, "\(collector.names())")
            #expect(optedOut.first?.anonymousID.lowercased() == installID, "sent under the id it closes")
            #expect(!FileManager.default.fileExists(atPath: sandbox.analyticsDirectory.path))
            #expect(try String(contentsOf: sandbox.analyticsChoiceFile, encoding: .utf8) == "denied 1\n")

            let total = collector.events.count
            #expect(total == before + 1)
            try await sandbox.succeed(["run"], environment: env)
            try await sandbox.succeed(["track", "after_deny"], environment: env)
            _ = try await sandbox.crash("abort", environment: env)
            try await sandbox.succeed(["run"], environment: env)
            #expect(collector.events.count == total, "sent after deny: \(collector.names().suffix(5))")
            #expect(sandbox.stateEntries.allSatisfy(Self.isAllowedWithoutAnalytics), "\(sandbox.stateEntries)")
        }
    }

    // (d)

    @Test("the two choices are two files: changing one never changes the other")
    func regimesAreIndependent() async throws {
        try await withSetup { sandbox, collector in
            let env = collector.environment()
            try await sandbox.succeed(["consent", "analytics", "grant"], environment: env)
            let analyticsChoice = try Data(contentsOf: sandbox.analyticsChoiceFile)

            // Crash reporting off: analytics untouched, and still flowing.
            try await sandbox.succeed(["consent", "crash-reporting", "off"], environment: env)
            #expect(try String(contentsOf: sandbox.crashChoiceFile, encoding: .utf8) == "disabled\n")
            #expect(try Data(contentsOf: sandbox.analyticsChoiceFile) == analyticsChoice)
            let changed = collector.events.filter { $0.name == "crash_reporting_changed" }
            #expect(changed.first?.properties["enabled"] as? Bool == false)

            // A crash while crash reporting is off leaves no report, but its analytics event
            // is queued and the next run delivers it.
            let crash = try await sandbox.crash("segfault", environment: env)
            #expect(crash.signal == SIGSEGV)
            #expect(sandbox.reports.isEmpty)
            #expect(!sandbox.queuedIDs.isEmpty, "crash_requested waits in the queue")
            try await sandbox.succeed(["run"], environment: env)
            let requested = collector.events.filter { $0.name == "crash_requested" }
            #expect(requested.first?.properties["kind"] as? String == "segfault")
            #expect(collector.count("run_finished") == 1)

            // Analytics denied: the crash-reporting choice untouched, crashes captured again once on.
            let crashChoice = try Data(contentsOf: sandbox.crashChoiceFile)
            try await sandbox.succeed(["consent", "analytics", "deny"], environment: env)
            #expect(try Data(contentsOf: sandbox.crashChoiceFile) == crashChoice)
            try await sandbox.succeed(["consent", "crash-reporting", "on"], environment: env)
            #expect(try String(contentsOf: sandbox.analyticsChoiceFile, encoding: .utf8) == "denied 1\n")
            _ = try await sandbox.crash("abort", environment: env)
            #expect(sandbox.reports.count == 1, "crash reporting works with analytics denied")
        }
    }

    // (e)

    @Test("500 then OK: the batch is kept and a later run delivers it with the same event ids")
    func serverErrorKeepsEvents() async throws {
        try await withSetup(collector: ["--fail-next", "1", "500"]) { sandbox, collector in
            let env = collector.environment()
            try await sandbox.succeed(["consent", "analytics", "grant"], environment: env)
            let kept = sandbox.queuedIDs
            #expect(kept.count == 1, "analytics_opted_in kept after the 500")
            #expect(collector.events.isEmpty)

            try await sandbox.succeed(["run"], environment: env)
            let stored = Set(collector.events.map { $0.id.lowercased() })
            #expect(Set(kept).isSubset(of: stored), "the kept event arrives with the id it was made with")
            #expect(collector.count("analytics_opted_in") == 1)
            #expect(collector.count("step_completed") == 5)
            #expect(sandbox.queuedIDs.isEmpty)
        }
    }

    @Test("429 with Retry-After: nothing is sent again before it is due, then everything arrives")
    func rateLimitedWaitsRetryAfter() async throws {
        try await withSetup(collector: ["--fail-next", "1", "429", "--retry-after", "3"]) { sandbox, collector in
            // Grant without an events API, so that serve's first batch is the first upload.
            try await sandbox.succeed(["consent", "analytics", "grant"])
            let launched = Date()
            // The provider sends every second: the first batch (at 1 s or later) meets the 429.
            let serve = try await sandbox.succeed(
                ["serve", "6"],
                environment: collector.environment(["CRASH_TEST_FLUSH_SECONDS": "1", "CRASH_TEST_TICK_MS": "500"]))
            #expect(serve.stdout.contains("0 events queued"), "\(serve.stdout)")
            let events = collector.events
            #expect(events.contains { $0.name == "app_launched" })
            #expect(events.count >= 5)
            let first = try #require(events.compactMap(\.receivedAt).min())
            // 1 s to the first attempt, then 3 s of Retry-After (minus the ms the clock rounds off).
            #expect(
                first.timeIntervalSince(launched) >= 3.95, "resent \(first.timeIntervalSince(launched)) s after launch")
            #expect(Set(events.map(\.id)).count == events.count)
        }
    }

    @Test("401: the batch is dropped, never sent later with the right key")
    func unauthorizedDropsBatch() async throws {
        try await withSetup { sandbox, collector in
            try await sandbox.succeed(["consent", "analytics", "grant"])
            let wrong = try await sandbox.succeed(
                ["run", "--note", "first-run"], environment: collector.environment(writeKey: "aso_wk_wrong"))
            #expect(wrong.stdout.contains("0 events queued"), "\(wrong.stdout)")
            #expect(sandbox.queuedIDs.isEmpty, "a refused batch leaves the queue")
            #expect(collector.events.isEmpty)

            try await sandbox.succeed(["run", "--note", "second-run"], environment: collector.environment())
            let notes = collector.events.filter { $0.name == "note_added" }.compactMap {
                $0.properties["text"] as? String
            }
            #expect(notes == ["second-run"])
            #expect(collector.count("run_finished") == 1)
        }
    }

    @Test("events with an invalid name are dropped before the queue and never sent")
    func invalidNamesNeverSent() async throws {
        // Every upload but the last fails, so that the queue keeps what was tracked.
        try await withSetup(collector: ["--fail-next", "4", "500"]) { sandbox, collector in
            let env = collector.environment()
            try await sandbox.succeed(["consent", "analytics", "grant"], environment: env)
            #expect(sandbox.queuedIDs.count == 1, "analytics_opted_in waits after the 500")
            let reserved = try await sandbox.succeed(["track", "$session_start"], environment: env)
            #expect(reserved.stderr.contains("dropped event with reserved_name"), "\(reserved.stderr)")
            let spaced = try await sandbox.succeed(["track", "bad name!"], environment: env)
            #expect(spaced.stderr.contains("dropped event with invalid_name"), "\(spaced.stderr)")
            let long = String(repeating: "x", count: 65)
            try await sandbox.succeed(["track", long], environment: env)
            #expect(sandbox.queuedIDs.count == 1, "only analytics_opted_in is queued: \(sandbox.queueText)")
            #expect(!sandbox.queueText.contains("session_start") && !sandbox.queueText.contains("bad name"))
            #expect(!sandbox.queueText.contains(long))

            try await sandbox.succeed(["track", "valid_probe", "n=1"], environment: env)
            #expect(collector.names().sorted() == ["analytics_opted_in", "valid_probe"], "\(collector.names())")
            #expect(sandbox.queuedIDs.isEmpty)
        }
    }

    // (f)

    @Test("kill -9 in the middle of tracking: the queue survives and the next run delivers it once")
    func queueSurvivesKill() async throws {
        let rates = ["--events-rate-per-install", "10000000", "--events-rate-per-key", "10000000"]
        try await withSetup(collector: rates) { sandbox, collector in
            // 2 ms ticks: three rounds cannot pass the queue's 1,000 events even if nothing is sent.
            let env = collector.environment(["CRASH_TEST_TICK_MS": "2"])
            try await sandbox.succeed(["consent", "analytics", "grant"])
            var everQueued = Set<String>()
            for round in 0..<3 {
                let child = try ChildProcess.start(
                    [sandbox.binary.path, "serve", "300"], environment: sandbox.environment(env), timeout: 90)
                // Wait until it is tracking (app_launched is queued), then kill it at a random moment.
                let stdout = child.directory.appendingPathComponent("stdout")
                let deadline = Date().addingTimeInterval(30)
                while !((try? String(contentsOf: stdout, encoding: .utf8)) ?? "").contains("serving"),
                    Date() < deadline
                {
                    try await Task.sleep(for: .milliseconds(10))
                }
                try await Task.sleep(for: .milliseconds(Int.random(in: 50...600)))
                kill(child.pid, SIGKILL)
                let killed = try await child.wait()
                #expect(killed.signal == SIGKILL, "round \(round): status \(killed.status)")
                let queued = sandbox.queuedIDs
                everQueued.formUnion(queued)
                #expect(Set(queued).count == queued.count, "an event queued twice")
            }
            #expect(!everQueued.isEmpty)

            let run = try await sandbox.succeed(["run"], environment: collector.environment())
            #expect(run.stdout.contains("0 events queued"), "\(run.stdout)")
            let ids = collector.events.map { $0.id.lowercased() }
            #expect(Set(ids).count == ids.count, "an event_id stored twice")
            let missing = everQueued.subtracting(ids)
            #expect(missing.isEmpty, "\(missing.count) queued events never arrived")
            #expect(collector.count("heartbeat") > 0)
            #expect(collector.count("app_launched") == 4)
        }
    }

    // (g)

    @Test("planted personal data reaches neither the queue nor the collector")
    func personalDataScrubbed() async throws {
        try await withSetup(collector: ["--fail-next", "2", "500"]) { sandbox, collector in
            let env = collector.environment()
            try await sandbox.succeed(["consent", "analytics", "grant"])
            try await sandbox.succeed(["run", "--note", CrashSandbox.plantedNote], environment: env)
            try await sandbox.succeed(
                [
                    "track", "pii_probe", "email=\(CrashSandbox.plantedEmail)", "ip=\(CrashSandbox.plantedIP)",
                    "card=\(CrashSandbox.plantedCard)", "mixed=\(CrashSandbox.plantedNote)",
                ], environment: env)

            // Both uploads met a 500: everything is still in the queue, scrubbed.
            let queue = sandbox.queueText
            #expect(queue.contains("note_added") && queue.contains("pii_probe"))
            #expect(queue.contains("[redacted]"))
            let planted = [
                CrashSandbox.plantedEmail, CrashSandbox.plantedIP, CrashSandbox.plantedCard, "4111111111111111",
            ]
            for secret in planted {
                #expect(!queue.contains(secret), "the queue holds \(secret)")
            }

            try await sandbox.succeed(["run"], environment: env)
            #expect(collector.count("pii_probe") == 1)
            #expect(collector.count("note_added") == 1)
            let store = collector.storeText
            for secret in planted + [CrashSandbox.plantedUser, CrashSandbox.plantedEnvironmentValue] {
                #expect(!store.contains(secret), "the collector stored \(secret)")
            }
            let probe = try #require(collector.events.first { $0.name == "pii_probe" })
            for key in ["email", "ip", "card"] {
                #expect(probe.properties[key] as? String == "[redacted]", "\(key): \(probe.properties[key] ?? "nil")")
            }
        }
    }
}
