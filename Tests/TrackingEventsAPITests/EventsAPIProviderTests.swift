import CrashReporterHTTP
import CrashReporterSupport
import Foundation
import TestSupport
import Testing

@testable import Tracking
@testable import TrackingEventsAPI

@Suite("Events-API provider")
struct EventsAPIProviderTests {
    let dir = TempDirectory()
    let wire = FakeTransport()
    let clock = ManualClock()

    func makeProvider(flushInterval: Duration = .seconds(3600), flushAt: Int = 20, maxQueued: Int = 1000)
        -> EventsAPIProvider
    {
        let clock = self.clock
        return EventsAPIProvider(
            stateDirectory: dir.path,
            options: EventsAPIOptions(
                baseURL: "http://collector.test/v1", writeKey: "aso_wk_test",
                delivery: AnalyticsDeliveryOptions(flushAt: flushAt, flushInterval: flushInterval, maxQueued: maxQueued)
            ),
            transport: wire, environment: [:], now: { clock.now })
    }

    func makeTracker(_ provider: EventsAPIProvider) -> Tracker {
        Tracker(stateDirectory: dir.path, providers: [provider], breadcrumbs: BreadcrumbRecorder())
    }

    func track(_ tracker: Tracker, _ count: Int, name: String = "item_viewed") {
        for n in 0..<count { tracker.track(NamedEvent(name, parameters: ["n": .int(n)])) }
    }

    /// The journal and the sealed batches: every event that waits.
    var queueText: String { QueuedAnalytics.text(stateDirectory: dir.path) }

    // MARK: The wire

    @Test("a flush posts the queued events with the write key, then empties the queue")
    func flushSends() async throws {
        let provider = makeProvider()
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        track(tracker, 3)
        #expect(provider.queuedCount == 4)
        await tracker.flush()
        let request = try #require(wire.requests.first)
        #expect(request.url.description == "http://collector.test/v1/events")
        #expect(request.method == "POST")
        #expect(request.headers["X-Write-Key"] == "aso_wk_test")
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(wire.sentEventNames == ["analytics_opted_in", "item_viewed", "item_viewed", "item_viewed"])
        let event = try #require(wire.batches.first?.last)
        #expect(event["anonymous_id"] as? String == tracker.installID)
        #expect((event["properties"] as? [String: Any])?["n"] as? Int == 2)
        #expect(provider.queuedCount == 0)
        #expect(!queueText.contains("item_viewed"))
    }

    @Test("20 queued events start a flush without being asked")
    func flushAtTwenty() async throws {
        let provider = makeProvider()
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        track(tracker, 18)
        #expect(provider.queuedCount == 19)
        try await Task.sleep(for: .milliseconds(50))
        #expect(wire.requests.isEmpty)
        track(tracker, 1)
        try await waitUntil { provider.queuedCount == 0 }
        #expect(wire.sentEventNames.count == 20)
    }

    @Test("the timer flushes without being asked")
    func timerFlush() async throws {
        let provider = makeProvider(flushInterval: .milliseconds(20))
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        track(tracker, 2)
        try await waitUntil { provider.queuedCount == 0 }
        #expect(wire.sentEventNames.count == 3)
    }

    @Test("batches hold at most 100 events, oldest first")
    func batchesOf100() async throws {
        let provider = makeProvider(flushAt: 1000)
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        track(tracker, 249)
        await provider.flush()
        #expect(wire.batches.map(\.count) == [100, 100, 50])
        let numbers = wire.batches.flatMap { $0 }.dropFirst().map { ($0["properties"] as! [String: Any])["n"] as! Int }
        #expect(numbers == Array(0..<249))
    }

    @Test("the queue keeps the newest 1,000 events")
    func queueBound() async throws {
        let provider = makeProvider(flushAt: 5000)
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        track(tracker, 1200)
        #expect(provider.queuedCount == 1000)
        await provider.flush()
        let numbers = wire.batches.flatMap { $0 }.map { ($0["properties"] as! [String: Any])["n"] as! Int }
        #expect(numbers == Array(200..<1200))
    }

    // MARK: Faults

    @Test("a network error keeps the batch, waits 30 s, and the retry has the same event ids")
    func networkErrorRetry() async throws {
        let provider = makeProvider()
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        track(tracker, 4)
        wire.script(FakeTransport.networkDown)
        await provider.flush()
        #expect(wire.requests.count == 1)
        #expect(provider.queuedCount == 5)
        await provider.flush()
        #expect(wire.requests.count == 1, "no retry before the backoff ends")
        clock.advance(.seconds(30))
        await provider.flush()
        #expect(wire.requests.count == 2)
        let ids = wire.batches.map { $0.map { $0["event_id"] as! String } }
        #expect(ids[0] == ids[1])
        #expect(provider.queuedCount == 0)
    }

    @Test("5xx backs off 30 s, then 60 s")
    func serverErrorBackoff() async throws {
        let provider = makeProvider()
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        wire.script(FakeTransport.status(503), FakeTransport.status(500))
        await provider.flush()
        clock.advance(.seconds(30))
        await provider.flush()
        #expect(wire.requests.count == 2)
        clock.advance(.seconds(59))
        await provider.flush()
        #expect(wire.requests.count == 2)
        clock.advance(.seconds(1))
        await provider.flush()
        #expect(wire.requests.count == 3)
        #expect(provider.queuedCount == 0)
    }

    @Test("429 waits Retry-After, keeping the batch")
    func rateLimited() async throws {
        let provider = makeProvider()
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        wire.script(FakeTransport.status(429, headers: ["Retry-After": "5"]))
        await provider.flush()
        clock.advance(.seconds(4))
        await provider.flush()
        #expect(wire.requests.count == 1)
        #expect(provider.queuedCount == 1)
        clock.advance(.seconds(1))
        await provider.flush()
        #expect(wire.requests.count == 2)
        #expect(provider.queuedCount == 0)
    }

    @Test("401 and 400 drop the batch for good", arguments: [400, 401])
    func clientErrorDrops(_ code: Int) async throws {
        let provider = makeProvider()
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        track(tracker, 2)
        wire.script(FakeTransport.status(code))
        await provider.flush()
        #expect(provider.queuedCount == 0)
        #expect(!queueText.contains("item_viewed"))
        track(tracker, 1)
        await provider.flush()
        #expect(wire.requests.count == 2, "no backoff after a drop")
    }

    @Test("a refused batch is kept for review under analytics/rejected, without the key, until consent goes")
    func refusedBatchKeptForReview() async throws {
        let provider = makeProvider()
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        track(tracker, 2)
        wire.script(FakeTransport.status(401))
        await provider.flush()
        let kept = dir.files.filter { $0.hasPrefix("analytics/rejected/") }
        #expect(kept.count == 2, "the batch and its reason: \(dir.files)")
        let batch = try #require(kept.first { $0.hasSuffix(".batch") })
        #expect(batch.hasPrefix("analytics/rejected/events-"), "the id names the wire")
        let text = try #require(dir.contents(batch))
        let lines = text.split(separator: "\n")
        #expect(lines.count == 3, "the three events, as they were sealed")
        #expect(lines.allSatisfy { $0.contains("\"anonymous_id\"") })
        #expect(!text.contains("aso_wk_test"), "the key is never kept")
        let noteName = batch.dropLast(".batch".count) + ".reason"
        let note = try JSON.decode(RejectionNote.self, from: Array(try #require(dir.contents(String(noteName))).utf8))
        #expect(note.status == 401)
        #expect(note.reason == "events API: HTTP 401")

        for _ in 0..<(RejectedBatches.limit + 3) {
            track(tracker, 1)
            wire.script(FakeTransport.status(400))
            await provider.flush()
            try await Task.sleep(for: .milliseconds(2))
        }
        let batches = dir.files.filter { $0.hasPrefix("analytics/rejected/") && $0.hasSuffix(".batch") }
        let notes = dir.files.filter { $0.hasPrefix("analytics/rejected/") && $0.hasSuffix(".reason") }
        #expect(batches.count == RejectedBatches.limit)
        #expect(notes.count == RejectedBatches.limit)
        #expect(!batches.contains(batch), "the oldest went first")
        try tracker.setAnalyticsConsent(granted: false)
        #expect(dir.files == ["analytics.consent"])
    }

    @Test("413 splits the batch and sends the halves")
    func payloadTooLarge() async throws {
        let provider = makeProvider(flushAt: 1000)
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        track(tracker, 9)
        wire.script(FakeTransport.status(413))
        await provider.flush()
        #expect(wire.batches.map(\.count) == [10, 5, 5])
        #expect(provider.queuedCount == 0)
    }

    @Test("per-event rejections in a 200 are not retried")
    func rejectedInsideOK() async throws {
        let provider = makeProvider()
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        wire.script { _ in
            HTTPResponse(
                status: 200,
                body: Array(
                    #"{"accepted":0,"rejected":[{"index":0,"event_id":"x","code":"invalid_name","message":"m"}],"clamped":[]}"#
                        .utf8))
        }
        await provider.flush()
        await provider.flush()
        #expect(wire.requests.count == 1)
        #expect(provider.queuedCount == 0)
    }

    @Test("no URL or key: events stay queued")
    func unconfigured() async throws {
        let provider = EventsAPIProvider(stateDirectory: dir.path, transport: wire, environment: [:])
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        track(tracker, 2)
        await provider.flush()
        #expect(wire.requests.isEmpty)
        #expect(provider.queuedCount == 3)
    }

    // MARK: Restarts

    @Test("queued events survive a restart and are sent by the next instance")
    func replayAfterRestart() async throws {
        do {
            let provider = makeProvider()
            let tracker = makeTracker(provider)
            try tracker.setAnalyticsConsent(granted: true)
            track(tracker, 3)
        }
        #expect(wire.requests.isEmpty)
        let provider = makeProvider()
        _ = makeTracker(provider)
        #expect(provider.queuedCount == 4)
        await provider.flush()
        #expect(wire.sentEventNames == ["analytics_opted_in", "item_viewed", "item_viewed", "item_viewed"])
    }

    @Test("a torn last line from a killed process is skipped at the next start")
    func tornTailAtRestart() async throws {
        do {
            let provider = makeProvider()
            let tracker = makeTracker(provider)
            try tracker.setAnalyticsConsent(granted: true)
            track(tracker, 2)
        }
        let path = dir.path + "/analytics/events.queue"
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("1 \(UUID().uuidString.lowercased()) {\"event_id\":\"half".utf8))
        try handle.close()
        let provider = makeProvider()
        let tracker = makeTracker(provider)
        #expect(provider.queuedCount == 3)
        track(tracker, 1)
        await provider.flush()
        #expect(wire.sentEventNames.count == 4)
    }

    // MARK: Consent

    @Test("revoking deletes the queue, cancels the retry and sends only the farewell")
    func revokePurges() async throws {
        let provider = makeProvider()
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        track(tracker, 5)
        wire.script(FakeTransport.status(503))
        await provider.flush()
        #expect(provider.deliveryState.failures == 1)
        try tracker.setAnalyticsConsent(granted: false)
        #expect(dir.files == ["analytics.consent"])
        #expect(provider.queuedCount == 0)
        #expect(provider.deliveryState == DeliveryStateMachine())
        await provider.shutdown(within: .seconds(60))
        #expect(wire.requests.count == 2)
        #expect(wire.batches.last?.map { $0["name"] as! String } == ["analytics_opted_out"])
        // A new grant starts clean: nothing from the old epoch comes back.
        try tracker.setAnalyticsConsent(granted: true)
        await provider.flush()
        #expect(wire.batches.last?.map { $0["name"] as! String } == ["analytics_opted_in"])
        #expect(
            wire.batches.last?.first?["anonymous_id"] as? String != wire.batches[0].first?["anonymous_id"] as? String)
    }

    @Test("shutdown's deadline is real time, whatever the provider's clock says")
    func shutdownDeadlineIsRealTime() async throws {
        // The provider's clock runs ten minutes behind: a deadline taken from it would be long past.
        clock.advance(.seconds(-600))
        let provider = makeProvider()
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        track(tracker, 3)
        // The server takes a moment: a deadline already past would cancel the request.
        wire.script({ _ in
            try await Task.sleep(for: .milliseconds(200))
            return HTTPResponse(status: 200, body: Array(#"{"accepted":4,"rejected":[],"clamped":[]}"#.utf8))
        })
        await provider.shutdown(within: .seconds(60))
        #expect(wire.sentEventNames == ["analytics_opted_in", "item_viewed", "item_viewed", "item_viewed"])
        #expect(provider.queuedCount == 0)
    }

    @Test("events from an earlier epoch are never sent, even if they reach the provider late")
    func earlierEpochRefused() async throws {
        let provider = makeProvider()
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        try tracker.setAnalyticsConsent(granted: false)
        try tracker.setAnalyticsConsent(granted: true)
        await provider.shutdown(within: .seconds(60))
        let sentBefore = wire.requests.count
        #expect(wire.sentEventNames.last == "analytics_opted_in")
        provider.receive(AnalyticsEvent(name: "late", parameters: [:], installID: "old", consentEpoch: 1))
        provider.receive(AnalyticsEvent(name: "current", parameters: [:], installID: "new", consentEpoch: 2))
        #expect(provider.queuedCount == 1)
        await provider.flush()
        #expect(wire.requests.count == sentBefore + 1)
        #expect(wire.sentEventNames.last == "current")
        #expect(!wire.sentEventNames.contains("late"))
    }

    @Test("a queue file from an earlier epoch is dropped at start")
    func earlierEpochFileDropped() async throws {
        do {
            let provider = makeProvider()
            let tracker = makeTracker(provider)
            try tracker.setAnalyticsConsent(granted: true)
            track(tracker, 3)
        }
        // As if the process died between storing a new grant and the queue being cleared.
        try Data("granted 2\n".utf8).write(to: URL(fileURLWithPath: dir.path + "/analytics.consent"))
        let provider = makeProvider()
        _ = makeTracker(provider)
        #expect(provider.queuedCount == 0)
        await provider.flush()
        #expect(wire.requests.isEmpty)
    }

    @Test("the answer to a batch in flight when consent is revoked is ignored")
    func revokeDuringFlight() async throws {
        let provider = makeProvider()
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        let gate = Gate()
        wire.script { _ in
            await gate.wait()
            return HTTPResponse(status: 503)
        }
        let flush = Task { await provider.flush() }
        try await waitUntil { wire.requests.count == 1 }
        try tracker.setAnalyticsConsent(granted: false)
        await gate.open()
        await flush.value
        #expect(provider.deliveryState.failures == 0)
        #expect(dir.files == ["analytics.consent"])
    }

    // MARK: Group commit

    @Test("a burst reaches the file within milliseconds, and at once on flush")
    func groupCommit() async throws {
        let provider = EventsAPIProvider(stateDirectory: dir.path, transport: wire, environment: [:])
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        track(tracker, 200)
        #expect(provider.queuedCount == 201)
        await provider.flush()
        #expect(queueText.split(separator: "\n").count == 201)
        track(tracker, 200)
        try await waitUntil { queueText.split(separator: "\n").count == 401 }
        let n = queueText.split(separator: "\n").map { line in
            line.contains("item_viewed") ? Int(line.split(separator: "\"n\":")[1].prefix { $0.isNumber })! : -1
        }
        #expect(n == [-1] + Array(0..<200) + Array(0..<200), "in the order tracked")
    }

    @Test("revoking right after a burst leaves nothing, not even the lines that waited in memory")
    func groupCommitRevoked() async throws {
        let provider = makeProvider(flushAt: 5000)
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        track(tracker, 300)
        try tracker.setAnalyticsConsent(granted: false)
        try await Task.sleep(for: .milliseconds(50))
        #expect(dir.files == ["analytics.consent"])
        await provider.shutdown(within: .seconds(60))
        #expect(wire.sentEventNames == ["analytics_opted_out"])
    }

    // MARK: Shutdown

    @Test("shutdown sends what is queued")
    func shutdownSends() async throws {
        let provider = makeProvider()
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        track(tracker, 3)
        await tracker.shutdown(within: .seconds(60))
        #expect(wire.sentEventNames.count == 4)
        #expect(provider.queuedCount == 0)
    }

    @Test("shutdown returns by its deadline when the server hangs, and the events stay queued")
    func shutdownIsBounded() async throws {
        let provider = makeProvider()
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        wire.script { _ in
            try await Task.sleep(for: .seconds(300))
            return HTTPResponse(status: 200)
        }
        let started = ContinuousClock.now
        await tracker.shutdown(within: .milliseconds(200))
        // Far below the hung server's 300 s, with room for a loaded machine (this is not a
        // speed measurement: it proves shutdown does not wait for the server).
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(provider.queuedCount == 1)
    }

    // MARK: Privacy

    @Test("planted personal data never reaches the queue file or the wire")
    func plantedDataNeverLeaves() async throws {
        let provider = makeProvider()
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        tracker.track(NamedEvent("planted", parameters: Planted.values))
        let onDisk = queueText
        #expect(onDisk.contains("planted"))
        await provider.flush()
        let onWire = wire.wireText
        #expect(onWire.contains("[redacted]"))
        for fragment in Planted.fragments {
            #expect(!onDisk.contains(fragment), "\(fragment) on disk")
            #expect(!onWire.contains(fragment), "\(fragment) on the wire")
        }
    }
}

/// Polls `condition` every 5 ms for up to 60 s (generous: a loaded CI machine can starve the
/// cooperative pool for seconds; a condition that holds returns at once).
func waitUntil(_ condition: @Sendable () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(60)
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("condition not met in 60 s")
            return
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// Holds a fake request until the test opens it.
actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}

@Suite("Consent races")
struct ConsentRaceTests {
    @Test("tracking from many tasks while consent flips leaves nothing behind a revocation")
    func trackWhileToggling() async throws {
        let dir = TempDirectory()
        let wire = FakeTransport()
        let provider = EventsAPIProvider(
            stateDirectory: dir.path,
            options: EventsAPIOptions(
                baseURL: "http://collector.test", writeKey: "k",
                delivery: AnalyticsDeliveryOptions(flushAt: 10_000, flushInterval: .seconds(3600))),
            transport: wire, environment: [:])
        let tracker = Tracker(stateDirectory: dir.path, providers: [provider], breadcrumbs: BreadcrumbRecorder())
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for n in 0..<300 { tracker.track(NamedEvent("busy", parameters: ["n": .int(n)])) }
                }
            }
            group.addTask {
                for _ in 0..<10 {
                    try? tracker.setAnalyticsConsent(granted: true)
                    try? tracker.setAnalyticsConsent(granted: false)
                }
            }
        }
        #expect(tracker.analyticsConsent == .denied)
        #expect(provider.queuedCount == 0)
        #expect(dir.files == ["analytics.consent"])

        // The next grant sends only its own events, all under its own install id.
        try tracker.setAnalyticsConsent(granted: true)
        tracker.track(NamedEvent("after"))
        await provider.shutdown(within: .seconds(60))
        let finalID = try #require(tracker.installID)
        let lastBatch = try #require(wire.batches.last)
        #expect(lastBatch.map { $0["name"] as! String } == ["analytics_opted_in", "after"])
        #expect(lastBatch.allSatisfy { $0["anonymous_id"] as? String == finalID })
    }
}

@Suite("Default transport")
struct DefaultTransportTests {
    @Test("a refused connection throws, so the batch is kept")
    func refused() async throws {
        let transport: any HTTPTransport = HTTPClient(userAgent: "events-tests/1", environment: [:])
        let request = HTTPRequest(
            url: try HTTPURL("http://127.0.0.1:1/v1/events"), method: "POST",
            headers: ["Content-Type": "application/json"], body: Array("{}".utf8), timeout: .seconds(5))
        await #expect(throws: HTTPError.self) { _ = try await transport.send(request) }
    }

    @Test("with the default transport, a refused connection is no response: the batch stays, the retry waits")
    func refusedKeepsTheBatch() async throws {
        let dir = TempDirectory()
        let provider = EventsAPIProvider(
            stateDirectory: dir.path,
            options: EventsAPIOptions(
                baseURL: "http://127.0.0.1:1", writeKey: "k",
                delivery: AnalyticsDeliveryOptions(flushInterval: .seconds(3600))),
            environment: [:])
        let tracker = Tracker(stateDirectory: dir.path, providers: [provider], breadcrumbs: BreadcrumbRecorder())
        try tracker.setAnalyticsConsent(granted: true)
        await provider.flush()
        #expect(provider.queuedCount == 1)
        #expect(provider.deliveryState.failures == 1)
        #expect(provider.deliveryState.retryAt != nil)
    }

    @Test("the User-Agent names the program, as before, and nothing about the machine")
    func userAgent() {
        #expect(EventsAPIProvider.userAgent == ProcessInfo.processInfo.processName + " (unknown version)")
        #expect(!EventsAPIProvider.userAgent.contains(ProcessInfo.processInfo.hostName))
    }
}

@Suite("Unusable base URL")
struct UnusableBaseURLTests {
    @Test(
        "an unusable base URL is reported, naming where it came from, and events stay queued",
        arguments: [
            (EventsAPIOptions(baseURL: "ftp://collector.test/v1", writeKey: "k"), [:], "EventsAPIOptions.baseURL"),
            (
                EventsAPIOptions(baseURL: "http://user:secret@collector.test", writeKey: "k"), [:],
                "EventsAPIOptions.baseURL"
            ),
            (EventsAPIOptions(writeKey: "k"), ["EVENTS_API_URL": "collector.test/v1"], "EVENTS_API_URL"),
            (EventsAPIOptions(writeKey: "k"), ["EVENTS_API_URL": "http://"], "EVENTS_API_URL"),
        ] as [(EventsAPIOptions, [String: String], String)])
    func reported(options: EventsAPIOptions, environment: [String: String], source: String) async throws {
        let dir = TempDirectory()
        let wire = FakeTransport()
        let provider = EventsAPIProvider(
            stateDirectory: dir.path, options: options, transport: wire, environment: environment)
        let error = try #require(provider.configurationError)
        #expect(error.hasPrefix(source))
        #expect(!error.contains("secret"))
        let tracker = Tracker(stateDirectory: dir.path, providers: [provider], breadcrumbs: BreadcrumbRecorder())
        try tracker.setAnalyticsConsent(granted: true)
        tracker.track(NamedEvent("kept"))
        await provider.flush()
        #expect(wire.requests.isEmpty)
        #expect(provider.queuedCount == 2)
    }

    @Test("a usable or missing base URL reports nothing")
    func usable() {
        let dir = TempDirectory()
        for options in [EventsAPIOptions(), EventsAPIOptions(baseURL: "https://collector.test/v1/")] {
            let provider = EventsAPIProvider(
                stateDirectory: dir.path, options: options, transport: FakeTransport(), environment: [:])
            #expect(provider.configurationError == nil)
        }
    }
}
