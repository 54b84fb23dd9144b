import Foundation
import TestSupport
import Testing
import TrackingTestKit

@testable import Tracking

enum ShopEvent: TrackingEvent {
    case orderPlaced(items: Int, express: Bool)
    case contacted(note: String)
    case refunded

    var name: String {
        switch self {
        case .orderPlaced: "order_placed"
        case .contacted: "support_contacted"
        case .refunded: "refund_issued"
        }
    }

    var parameters: [String: TrackingValue] {
        switch self {
        case .orderPlaced(let items, let express): ["items": .int(items), "express": .bool(express)]
        case .contacted(let note): ["note": .string(note)]
        case .refunded: [:]
        }
    }
}

@Suite("Tracker and analytics consent")
struct TrackerTests {
    let dir = TempDirectory()

    func makeTracker(
        _ providers: [any AnalyticsProvider], breadcrumbs: BreadcrumbRecorder = BreadcrumbRecorder()
    ) -> Tracker {
        Tracker(stateDirectory: dir.path, providers: providers, breadcrumbs: breadcrumbs)
    }

    // MARK: Default: unknown

    @Test("with no choice, events become breadcrumbs only and nothing is stored")
    func unknownStoresNothing() {
        let recorder = RecordingAnalyticsProvider()
        let crumbs = BreadcrumbRecorder()
        let tracker = makeTracker([recorder], breadcrumbs: crumbs)
        tracker.track(ShopEvent.orderPlaced(items: 2, express: true))
        #expect(tracker.analyticsConsent == .unknown)
        #expect(recorder.events.isEmpty)
        #expect(crumbs.all.map(\.message) == ["order_placed"])
        #expect(crumbs.all.first?.data.sorted() == ["express=true", "items=2"])
        #expect(dir.files.isEmpty)
        #expect(tracker.installID == nil)
    }

    // MARK: Granting

    @Test("granting stores the choice; the install id comes with the first event, after analytics_opted_in")
    func grant() throws {
        let recorder = RecordingAnalyticsProvider()
        let tracker = makeTracker([recorder])
        try tracker.setAnalyticsConsent(granted: true)
        #expect(dir.contents("analytics.consent") == "granted 1\n")
        #expect(recorder.eventNames == ["analytics_opted_in"])
        let id = try #require(tracker.installID)
        #expect(dir.contents("analytics/install-id") == id + "\n")
        tracker.track(ShopEvent.orderPlaced(items: 1, express: false))
        #expect(recorder.eventNames == ["analytics_opted_in", "order_placed"])
        #expect(recorder.events.allSatisfy { $0.installID == id && $0.consentEpoch == 1 })
        #expect(recorder.events[1].parameters == ["items": 1, "express": false])
        #expect(Set(recorder.events.map(\.id)).count == 2)
    }

    @Test("an event carries a lower-case version 4 UUID and the time it was tracked, in seconds since 1970")
    func idAndTime() throws {
        let recorder = RecordingAnalyticsProvider()
        let tracker = makeTracker([recorder])
        try tracker.setAnalyticsConsent(granted: true)
        let before = Date().timeIntervalSince1970
        tracker.track(ShopEvent.refunded)
        let after = Date().timeIntervalSince1970
        let event = try #require(recorder.events.last)
        let uuid = try #require(UUID(uuidString: event.id))
        #expect(event.id == uuid.uuidString.lowercased())
        #expect(Array(event.id)[14] == "4")
        // Whole milliseconds: at most one below the clock read just before.
        #expect(event.occurredAt >= before - 0.001 && event.occurredAt <= after)
        #expect((event.occurredAt * 1000).rounded() == event.occurredAt * 1000)
        let installID = try #require(tracker.installID)
        #expect(UUID(uuidString: installID)?.uuidString.lowercased() == installID)
        // The same event made with the public initializer is the same event.
        let copy = AnalyticsEvent(
            id: event.id, name: event.name, parameters: event.parameters, occurredAt: event.occurredAt,
            installID: event.installID, consentEpoch: event.consentEpoch)
        #expect(copy == event)
        #expect(copy.hashValue == event.hashValue)
        #expect(
            copy
                != AnalyticsEvent(
                    name: event.name, parameters: event.parameters, occurredAt: event.occurredAt,
                    installID: event.installID, consentEpoch: event.consentEpoch))
    }

    @Test("an install id stored in upper case by an earlier version is kept")
    func upperCaseInstallID() throws {
        let stored = UUID().uuidString
        try Data("granted 1\n".utf8).write(to: URL(fileURLWithPath: dir.path + "/analytics.consent"))
        try FileManager.default.createDirectory(atPath: dir.path + "/analytics", withIntermediateDirectories: true)
        try Data((stored + "\n").utf8).write(to: URL(fileURLWithPath: dir.path + "/analytics/install-id"))
        let recorder = RecordingAnalyticsProvider()
        let tracker = makeTracker([recorder])
        #expect(tracker.installID == stored)
        tracker.track(ShopEvent.refunded)
        #expect(recorder.events.last?.installID == stored)
    }

    @Test("granting twice changes nothing")
    func grantTwice() throws {
        let recorder = RecordingAnalyticsProvider()
        let tracker = makeTracker([recorder])
        try tracker.setAnalyticsConsent(granted: true)
        try tracker.setAnalyticsConsent(granted: true)
        #expect(recorder.eventNames == ["analytics_opted_in"])
        #expect(dir.contents("analytics.consent") == "granted 1\n")
    }

    // MARK: Revoking

    @Test("revoking hands analytics_opted_out over before closing, then purges the id")
    func revoke() throws {
        let recorder = RecordingAnalyticsProvider()
        let tracker = makeTracker([recorder])
        try tracker.setAnalyticsConsent(granted: true)
        let id = try #require(tracker.installID)
        try tracker.setAnalyticsConsent(granted: false)
        let entries = recorder.entries
        // The farewell comes with the revocation, made in the epoch it closes, with the id it held.
        guard case .farewell(let farewell) = entries[entries.count - 2], case .consent(.denied, 1) = entries.last!
        else {
            Issue.record("unexpected order: \(entries)")
            return
        }
        #expect(farewell.name == "analytics_opted_out")
        #expect(farewell.installID == id)
        #expect(farewell.consentEpoch == 1)
        #expect(tracker.installID == nil)
        #expect(dir.files == ["analytics.consent"])
        #expect(dir.contents("analytics.consent") == "denied 1\n")
        tracker.track(ShopEvent.refunded)
        #expect(!recorder.eventNames.contains("refund_issued"))
    }

    @Test("denying from unknown sends no farewell")
    func denyFromUnknown() throws {
        let recorder = RecordingAnalyticsProvider()
        let tracker = makeTracker([recorder])
        try tracker.setAnalyticsConsent(granted: false)
        #expect(recorder.farewells.isEmpty)
        #expect(tracker.analyticsConsent == .denied)
    }

    @Test("a new grant after a revocation is a new epoch with a new install id")
    func regrant() throws {
        let recorder = RecordingAnalyticsProvider()
        let tracker = makeTracker([recorder])
        try tracker.setAnalyticsConsent(granted: true)
        let first = try #require(tracker.installID)
        try tracker.setAnalyticsConsent(granted: false)
        try tracker.setAnalyticsConsent(granted: true)
        let second = try #require(tracker.installID)
        #expect(first != second)
        #expect(dir.contents("analytics.consent") == "granted 2\n")
        #expect(recorder.events.last?.consentEpoch == 2)
    }

    // MARK: Restarts

    @Test("the choice, the epoch and the install id survive a restart")
    func persistence() throws {
        let id: String
        do {
            let tracker = makeTracker([RecordingAnalyticsProvider()])
            try tracker.setAnalyticsConsent(granted: false)
            try tracker.setAnalyticsConsent(granted: true)
            tracker.track(ShopEvent.refunded)
            id = try #require(tracker.installID)
        }
        let recorder = RecordingAnalyticsProvider()
        let restarted = makeTracker([recorder])
        #expect(restarted.analyticsConsent == .granted)
        #expect(restarted.installID == id)
        // Providers learn the stored choice first thing.
        #expect(recorder.entries.first == .consent(.granted, epoch: 1))
        restarted.track(ShopEvent.refunded)
        #expect(recorder.events.first?.installID == id)

        try restarted.setAnalyticsConsent(granted: false)
        let again = makeTracker([])
        #expect(again.analyticsConsent == .denied)
        #expect(again.installID == nil)
        #expect(AnalyticsConsent.stored(stateDirectory: dir.path) == .denied)
    }

    @Test("a state directory with analytics leftovers but no grant is purged at start")
    func leftoversPurged() throws {
        try FileManager.default.createDirectory(atPath: dir.path + "/analytics", withIntermediateDirectories: true)
        try Data("x\n".utf8).write(to: URL(fileURLWithPath: dir.path + "/analytics/events.queue"))
        try Data("garbled".utf8).write(to: URL(fileURLWithPath: dir.path + "/analytics.consent"))
        let tracker = makeTracker([])
        #expect(tracker.analyticsConsent == .unknown)
        #expect(dir.files == ["analytics.consent"])
    }

    // MARK: Two regimes

    @Test("with crash reporting opted out, events leave no breadcrumb")
    func noBreadcrumbWhenCrashOptedOut() {
        let crumbs = BreadcrumbRecorder(enabled: false)
        let tracker = makeTracker([], breadcrumbs: crumbs)
        tracker.track(ShopEvent.refunded)
        #expect(crumbs.all.isEmpty)
    }

    // MARK: Names and privacy

    @Test(
        "invalid names are dropped: no breadcrumb, no analytics",
        arguments: ["", "$session_start", "has space", String(repeating: "n", count: 65)])
    func invalidNames(_ name: String) throws {
        let recorder = RecordingAnalyticsProvider()
        let crumbs = BreadcrumbRecorder()
        let tracker = makeTracker([recorder], breadcrumbs: crumbs)
        try tracker.setAnalyticsConsent(granted: true)
        tracker.track(NamedEvent(name))
        #expect(recorder.eventNames == ["analytics_opted_in"])
        #expect(crumbs.all.map(\.message) == ["analytics_opted_in"])
    }

    @Test("planted personal data reaches providers scrubbed")
    func scrubbedForProviders() throws {
        let recorder = RecordingAnalyticsProvider()
        let tracker = makeTracker([recorder])
        try tracker.setAnalyticsConsent(granted: true)
        tracker.track(NamedEvent("planted", parameters: Planted.values))
        let event = try #require(recorder.events.last)
        let text = event.parameters.values.map(\.text).joined(separator: " ")
        for fragment in Planted.fragments {
            #expect(!text.contains(fragment), "\(fragment) leaked")
        }
        #expect(event.parameters["email"] == "contact [redacted] now")
    }

    @Test("track is callable from many tasks at once; every event arrives once")
    func concurrentTracking() async throws {
        let recorder = RecordingAnalyticsProvider()
        let tracker = makeTracker([recorder])
        try tracker.setAnalyticsConsent(granted: true)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for n in 0..<50 { tracker.track(ShopEvent.orderPlaced(items: task * 100 + n, express: false)) }
                }
            }
        }
        let orders = recorder.events.filter { $0.name == "order_placed" }
        #expect(orders.count == 400)
        #expect(Set(orders.map(\.id)).count == 400)
        #expect(Set(orders.map(\.installID)).count == 1)
    }

    @Test("the breadcrumbs-only tracker cannot store a choice")
    func breadcrumbsOnly() {
        let tracker = Tracker.breadcrumbsOnly()
        #expect(throws: TrackingError.noStateDirectory) { try tracker.setAnalyticsConsent(granted: true) }
        #expect(tracker.analyticsConsent == .unknown)
    }
}
