import CrashReporterHTTP
import CrashReporterSupport
import Foundation
import TestSupport
import Testing

@testable import Tracking
@testable import TrackingEventsAPI

/// The analytics side of the one folder queue: batches sealed from the journal into
/// `analytics/events.outbox/`, sent oldest first, set aside, split and bounded there.
@Suite("Sealed analytics batches")
struct SealedBatchTests {
    let dir = TempDirectory()
    let wire = FakeTransport()
    let clock = ManualClock()

    func makeProvider(maxQueued: Int = 1000) -> EventsAPIProvider {
        let clock = self.clock
        return EventsAPIProvider(
            stateDirectory: dir.path,
            options: EventsAPIOptions(
                baseURL: "http://collector.test/v1", writeKey: "aso_wk_test",
                delivery: AnalyticsDeliveryOptions(flushAt: 5000, flushInterval: .seconds(3600), maxQueued: maxQueued)
            ),
            transport: wire, environment: [:], now: { clock.now })
    }

    func makeTracker(_ provider: EventsAPIProvider) -> Tracker {
        Tracker(stateDirectory: dir.path, providers: [provider], breadcrumbs: BreadcrumbRecorder())
    }

    func track(_ tracker: Tracker, _ count: Int, name: String = "item_viewed") {
        for n in 0..<count { tracker.track(NamedEvent(name, parameters: ["n": .int(n)])) }
    }

    var outbox: String { StateLayout(dir.path).batchOutbox(StateLayout.Name.eventsQueue) }
    var sealed: [[String]] { QueuedAnalytics.sealedBatches(stateDirectory: dir.path) }
    var journalLines: Int {
        (dir.contents("analytics/events.queue") ?? "").split(separator: "\n").count
    }

    /// Grants consent, tracks `count` events and fails their upload: they wait sealed.
    func sealAfterFailure(_ tracker: Tracker, _ provider: EventsAPIProvider, count: Int) async throws {
        try tracker.setAnalyticsConsent(granted: true)
        track(tracker, count)
        wire.script(FakeTransport.networkDown)
        await provider.flush()
    }

    @Test("a failed upload leaves its events sealed as one batch, out of the journal")
    func failedUploadSeals() async throws {
        let provider = makeProvider()
        let tracker = makeTracker(provider)
        try await sealAfterFailure(tracker, provider, count: 3)
        #expect(sealed.map(\.count) == [4])
        #expect(journalLines == 0)
        #expect(provider.queuedCount == 4)
        let ids = try #require(wire.batches.first).map { $0["event_id"] as! String }
        #expect(sealed[0].map { String($0.split(separator: " ")[1]) } == ids, "sealed as sent, in order")
    }

    @Test("a sealed batch survives a relaunch and is sent before newer events")
    func sealedBatchSurvivesRelaunch() async throws {
        do {
            let provider = makeProvider()
            let tracker = makeTracker(provider)
            try await sealAfterFailure(tracker, provider, count: 3)
            track(tracker, 2, name: "later")
        }
        let firstIDs = try #require(wire.batches.first).map { $0["event_id"] as! String }
        let provider = makeProvider()
        _ = makeTracker(provider)
        #expect(provider.queuedCount == 6)
        await provider.flush()
        #expect(wire.batches.map(\.count) == [4, 4, 2])
        #expect(wire.batches[1].map { $0["event_id"] as! String } == firstIDs, "the same events, the same ids")
        #expect(wire.batches[2].map { $0["name"] as! String } == ["later", "later"])
        #expect(provider.queuedCount == 0)
        #expect(sealed.isEmpty)
    }

    @Test("events left in both the journal and a sealed batch by a kill are queued once")
    func killBetweenSealAndJournal() async throws {
        do {
            let provider = makeProvider()
            let tracker = makeTracker(provider)
            try await sealAfterFailure(tracker, provider, count: 3)
        }
        // As if the process died after sealing, before the journal was rewritten.
        let lines = sealed[0].map { $0 + "\n" }.joined()
        try Data(lines.utf8).write(to: URL(fileURLWithPath: dir.path + "/analytics/events.queue"))
        let provider = makeProvider()
        _ = makeTracker(provider)
        #expect(provider.queuedCount == 4)
        #expect(journalLines == 0)
        await provider.flush()
        #expect(wire.batches.map(\.count) == [4, 4])
    }

    @Test("413 splits the sealed batch in two that keep its place, head first")
    func payloadTooLargeSplits() async throws {
        let provider = makeProvider()
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        track(tracker, 9)
        wire.script(FakeTransport.status(413), FakeTransport.networkDown)
        await provider.flush()
        #expect(wire.batches.map(\.count) == [10, 5])
        let halves = sealed
        #expect(halves.map(\.count) == [5, 5])
        let order = try #require(wire.batches.first).map { $0["event_id"] as! String }
        #expect(halves.flatMap { $0 }.map { String($0.split(separator: " ")[1]) } == order)
        clock.advance(.seconds(30))
        await provider.flush()
        #expect(wire.batches.map(\.count) == [10, 5, 5, 5])
        #expect(wire.batches.dropFirst(2).flatMap { $0 }.map { $0["event_id"] as! String } == order)
        #expect(provider.queuedCount == 0)
    }

    @Test("revoking consent deletes the sealed batches with the journal; nothing of them comes back")
    func revokeDeletesSealed() async throws {
        let provider = makeProvider()
        let tracker = makeTracker(provider)
        try await sealAfterFailure(tracker, provider, count: 3)
        #expect(!sealed.isEmpty)
        try tracker.setAnalyticsConsent(granted: false)
        #expect(dir.files == ["analytics.consent"])
        #expect(!FileManager.default.fileExists(atPath: outbox))
        #expect(provider.queuedCount == 0)
        try tracker.setAnalyticsConsent(granted: true)
        await provider.shutdown(within: .seconds(60))
        #expect(wire.sentEventNames.filter { $0 == "item_viewed" }.count == 3, "sent once, before the revocation")
    }

    @Test("a sealed batch of an earlier consent is deleted at start, never sent")
    func earlierEpochSealedDropped() async throws {
        do {
            let provider = makeProvider()
            let tracker = makeTracker(provider)
            try await sealAfterFailure(tracker, provider, count: 3)
        }
        let sentBefore = wire.requests.count
        // As if the process died between storing a new grant and the analytics folder being cleared.
        try Data("granted 2\n".utf8).write(to: URL(fileURLWithPath: dir.path + "/analytics.consent"))
        let provider = makeProvider()
        _ = makeTracker(provider)
        #expect(provider.queuedCount == 0)
        #expect(sealed.isEmpty)
        await provider.flush()
        #expect(wire.requests.count == sentBefore)
    }

    @Test("a damaged sealed batch is set aside with its reason, never sent")
    func damagedSetAside() async throws {
        let provider = makeProvider()
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        try FileManager.default.createDirectory(atPath: outbox, withIntermediateDirectories: true)
        let damaged = "events-0000000000001-000001"
        try Data("1 not-an-id {\"secret_marker\":1}\n".utf8).write(
            to: URL(fileURLWithPath: outbox + "/" + damaged + ".batch"))
        await provider.flush()
        #expect(wire.sentEventNames == ["analytics_opted_in"])
        #expect(!wire.wireText.contains("secret_marker"))
        #expect(dir.files.contains("analytics/rejected/\(damaged).batch"))
        let note = try JSON.decode(
            RejectionNote.self, from: Array(try #require(dir.contents("analytics/rejected/\(damaged).reason")).utf8))
        #expect(note.status == nil)
        #expect(note.reason.hasPrefix("events API: damaged: "), "\(note.reason)")
        #expect(sealed.isEmpty)
    }

    @Test("maxQueued counts sealed events: past it the oldest sealed batch goes first")
    func boundCountsSealed() async throws {
        let provider = makeProvider(maxQueued: 10)
        let tracker = makeTracker(provider)
        try await sealAfterFailure(tracker, provider, count: 4)
        #expect(provider.queuedCount == 5)
        track(tracker, 5, name: "second")
        #expect(provider.queuedCount == 10)
        #expect(sealed.map(\.count) == [5])
        track(tracker, 1, name: "third")
        #expect(provider.queuedCount == 6)
        #expect(sealed.isEmpty, "the sealed batch held the oldest events")
        clock.advance(.seconds(30))
        await provider.flush()
        #expect(
            wire.batches.dropFirst().flatMap { $0 }.map { $0["name"] as! String } == Array(
                repeating: "second", count: 5) + ["third"])
    }

    @Test("while another process holds the wire's outbox lock, this one keeps journaling and sends nothing")
    func lockHeldElsewhere() async throws {
        let provider = makeProvider()
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        track(tracker, 2)
        var other = DirectoryLock(path: lockPath, wait: false)
        #expect(other != nil)
        await provider.flush()
        #expect(wire.requests.isEmpty)
        #expect(provider.queuedCount == 3)
        #expect(journalLines == 3)
        other = nil
        await provider.flush()
        #expect(wire.sentEventNames.count == 3)
        #expect(provider.queuedCount == 0)
        _ = other
    }

    var lockPath: String { StateLayout(dir.path).batchOutboxLock(StateLayout.Name.eventsQueue) }

    @Test("revoking consent leaves the outbox lock another process holds the only one")
    func revokeKeepsHeldLock() async throws {
        let provider = makeProvider()
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        var other = DirectoryLock(path: lockPath, wait: false)
        #expect(other != nil)
        try tracker.setAnalyticsConsent(granted: false)
        try tracker.setAnalyticsConsent(granted: true)
        track(tracker, 2)
        await provider.flush()
        // The farewell is sent on its own, never queued, so without the lock.
        #expect(wire.sentEventNames.filter { $0 != "analytics_opted_out" }.isEmpty, "\(wire.sentEventNames)")
        #expect(FileManager.default.fileExists(atPath: lockPath), "the holder's file is kept")
        #expect(DirectoryLock(path: lockPath, wait: false) == nil, "the holder's lock is still the lock")
        other = nil
        await provider.shutdown(within: .seconds(60))
        #expect(
            wire.sentEventNames.sorted() == ["analytics_opted_in", "analytics_opted_out", "item_viewed", "item_viewed"])
        _ = other
    }

    @Test("while another process holds the lock, a full queue tries it again only after a second")
    func boundWaitsForTheHolder() async throws {
        let provider = makeProvider(maxQueued: 10)
        let tracker = makeTracker(provider)
        try await sealAfterFailure(tracker, provider, count: 4)
        var other = DirectoryLock(path: lockPath, wait: false)
        #expect(other != nil)
        track(tracker, 8, name: "second")
        #expect(provider.queuedCount == 13, "the holder keeps the bound")
        other = nil
        track(tracker, 1, name: "third")
        #expect(provider.queuedCount == 14, "not tried again within the second")
        clock.advance(.seconds(1))
        track(tracker, 1, name: "fourth")
        #expect(provider.queuedCount == 10)
        #expect(sealed.isEmpty, "the sealed batch held the oldest events")
        _ = other
    }

    /// With `maxQueued` 10: 10 events sealed, refused with 413 and split into two batches of 5,
    /// whose retry waits 30 s.
    func twoSealedHalves() async throws -> (EventsAPIProvider, Tracker) {
        let provider = makeProvider(maxQueued: 10)
        let tracker = makeTracker(provider)
        try tracker.setAnalyticsConsent(granted: true)
        track(tracker, 9)
        wire.script(FakeTransport.status(413), FakeTransport.networkDown)
        await provider.flush()
        #expect(sealed.map(\.count) == [5, 5])
        return (provider, tracker)
    }

    @Test("events tracked while a batch is in flight are kept within maxQueued once its answer is applied")
    func boundAfterAnAnswer() async throws {
        let (provider, tracker) = try await twoSealedHalves()
        clock.advance(.seconds(30))
        let queuedDuringNext = Lock<Int?>(nil)
        wire.script(
            { _ in
                for n in 0..<12 { tracker.track(NamedEvent("during", parameters: ["n": .int(n)])) }
                return HTTPResponse(status: 200, body: Array(#"{"accepted":5,"rejected":[],"clamped":[]}"#.utf8))
            },
            { request in
                queuedDuringNext.withLock { $0 = provider.queuedCount }
                return try await FakeTransport.networkDown(request)
            })
        await provider.flush()
        #expect(queuedDuringNext.withLock { $0 } == 10)
        #expect(provider.queuedCount <= 10)
    }

    @Test("a full queue counts the sealed events again before it drops any: another process may have sent some")
    func boundRecountsSealed() async throws {
        let (provider, tracker) = try await twoSealedHalves()
        // As another process does once it has sent the older one.
        let older = try #require(try FileManager.default.contentsOfDirectory(atPath: outbox).sorted().first)
        try FileManager.default.removeItem(atPath: outbox + "/" + older)
        track(tracker, 1, name: "later")
        #expect(provider.queuedCount == 6)
        #expect(sealed.map(\.count) == [5], "the batch left is kept: 6 events are within the bound")
    }
}
