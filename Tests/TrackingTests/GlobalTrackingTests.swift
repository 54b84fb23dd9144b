import Foundation
import TestSupport
import Testing
import TrackingTestKit

@testable import Tracking

/// The only suite that touches the process-wide tracker slot (the crash reporter's tests own the
/// breadcrumb ring and the sink slot).
@Suite("Global tracking", .serialized)
struct GlobalTrackingTests {
    @Test("track(_:) goes through the bootstrapped tracker")
    func globalTrack() throws {
        let dir = TempDirectory()
        let recorder = RecordingAnalyticsProvider()
        let tracker = Tracker(stateDirectory: dir.path, providers: [recorder])
        TrackingSystem.bootstrapInternal(tracker)
        defer { TrackingSystem.bootstrapInternal(.breadcrumbsOnly()) }
        try tracker.setAnalyticsConsent(granted: true)
        track(NamedEvent("global_event"))
        #expect(recorder.eventNames == ["analytics_opted_in", "global_event"])
        #expect(TrackingSystem.tracker === tracker)
    }

    @Test("bootstrap is once per process: a second call traps")
    func bootstrapOnce() async {
        await #expect(processExitsWith: .failure) {
            TrackingSystem.bootstrap(.breadcrumbsOnly())
            TrackingSystem.bootstrap(.breadcrumbsOnly())
        }
    }

    @Test("before bootstrap, track(_:) records breadcrumbs and nothing else")
    func defaultTracker() async {
        await #expect(processExitsWith: .success) {
            let tracker = TrackingSystem.tracker
            guard tracker.stateDirectory == nil, tracker.analyticsConsent == .unknown else { exit(1) }
            track(NamedEvent("before_bootstrap"))
            exit(0)
        }
    }
}
