import Dispatch
import Foundation
import Tracking
import TrackingEventsAPI

/// crash-test's tracking setup: one `Tracker` on the crash reporter's state directory, with
/// the events-API provider when `EVENTS_API_URL` and `EVENTS_WRITE_KEY` are both set, installed
/// once for the global `track(_:)`.
struct Analytics {
    let tracker: Tracker
    /// Nil without an events API: events then only become breadcrumbs.
    let eventsAPI: EventsAPIProvider?
    /// How long the commands wait at exit for analytics to be sent.
    let exitTimeout: Duration

    /// Makes the tracker (it reads the analytics choice first) and bootstraps `TrackingSystem`.
    /// Call once per process.
    static func bootstrap(stateDirectory: String, environment: [String: String]) -> Analytics {
        var eventsAPI: EventsAPIProvider?
        if let url = environment["EVENTS_API_URL"], !url.isEmpty, let key = environment["EVENTS_WRITE_KEY"],
            !key.isEmpty
        {
            let interval = Double(environment["CRASH_TEST_FLUSH_SECONDS"] ?? "").flatMap { $0 > 0 ? $0 : nil } ?? 30
            eventsAPI = EventsAPIProvider(
                stateDirectory: stateDirectory,
                options: EventsAPIOptions(
                    appVersion: crashTestVersion, build: "1", flushInterval: .milliseconds(Int(interval * 1000))),
                environment: environment)
        }
        let tracker = Tracker(stateDirectory: stateDirectory, providers: eventsAPI.map { [$0] } ?? [])
        TrackingSystem.bootstrap(tracker)
        let timeout = Double(environment["CRASH_TEST_ANALYTICS_TIMEOUT"] ?? "").flatMap { $0 >= 0 ? $0 : nil } ?? 5
        return Analytics(tracker: tracker, eventsAPI: eventsAPI, exitTimeout: .milliseconds(Int(timeout * 1000)))
    }

    /// Lets the provider send what it holds (the opt-out farewell first) for at most
    /// `exitTimeout`, then prints what is left. Blocks the calling thread: a hung events API
    /// cannot hold the exit longer than that.
    func shutdown() {
        let tracker = self.tracker
        let timeout = exitTimeout
        Self.blocking { await tracker.shutdown(within: timeout) }
        guard let eventsAPI else { return }
        print("crash-test: analytics \(tracker.analyticsConsent.rawValue), \(eventsAPI.queuedCount) events queued")
    }

    /// Runs `work` on the concurrency pool and waits for it on this (non-pool) thread.
    private static func blocking(_ work: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await work()
            done.signal()
        }
        done.wait()
    }
}
