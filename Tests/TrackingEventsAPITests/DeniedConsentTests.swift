import Foundation
import TestSupport
import Testing
import TrackingTestKit

@testable import Tracking
@testable import TrackingEventsAPI

@Suite("Events-API provider under a denied choice")
struct DeniedConsentTests {
    let dir = TempDirectory()

    @Test("denied: nothing but the choice is stored")
    func deniedStoresOnlyTheChoice() throws {
        let recorder = RecordingAnalyticsProvider()
        let tracker = Tracker(
            stateDirectory: dir.path,
            providers: [recorder, EventsAPIProvider(stateDirectory: dir.path, transport: FakeTransport())],
            breadcrumbs: nil)
        try tracker.setAnalyticsConsent(granted: false)
        for _ in 0..<30 { tracker.track(NamedEvent("refund_issued")) }
        #expect(dir.files == ["analytics.consent"])
        #expect(recorder.events.isEmpty)
        #expect(recorder.farewells.isEmpty)
    }
}
