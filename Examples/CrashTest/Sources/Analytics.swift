import Dispatch
import Foundation
import Tracking
import TrackingEventsAPI

/// crash-test's tracking setup: one `Tracker` on the crash reporter's state directory, with a
/// provider for each backend configured in the environment (the events API with
/// `EVENTS_API_URL` and `EVENTS_WRITE_KEY`, TelemetryDeck with `TELEMETRYDECK_APP_ID`, PostHog
/// with `POSTHOG_API_KEY`), installed once for the global `track(_:)`.
struct Analytics {
    let tracker: Tracker
    /// Empty without a backend: events then only become breadcrumbs.
    let providers: [any QueueingAnalyticsProvider]
    /// How long the commands wait at exit for analytics to be sent.
    let exitTimeout: Duration

    /// Makes the tracker (it reads the analytics choice first) and bootstraps `TrackingSystem`.
    /// Call once per process.
    static func bootstrap(stateDirectory: String, environment: [String: String]) -> Analytics {
        let interval = Double(environment["CRASH_TEST_FLUSH_SECONDS"] ?? "").flatMap { $0 > 0 ? $0 : nil } ?? 30
        let flushInterval = Duration.milliseconds(Int(interval * 1000))
        let delivery = AnalyticsDeliveryOptions(flushInterval: flushInterval)
        func isSet(_ name: String) -> Bool { !(environment[name] ?? "").isEmpty }
        var providers: [any QueueingAnalyticsProvider] = []
        if isSet("EVENTS_API_URL") && isSet("EVENTS_WRITE_KEY") {
            providers.append(
                EventsAPIProvider(
                    stateDirectory: stateDirectory,
                    options: EventsAPIOptions(
                        appVersion: crashTestVersion, build: "1",
                        delivery: delivery),
                    environment: environment))
        }
        // The other backends: the same tracker, the same events; only the provider value differs.
        if isSet("TELEMETRYDECK_APP_ID") {
            providers.append(
                TelemetryDeckProvider(
                    stateDirectory: stateDirectory, options: TelemetryDeckOptions(delivery: delivery),
                    environment: environment))
        }
        if isSet("POSTHOG_API_KEY") {
            providers.append(
                PostHogProvider(
                    stateDirectory: stateDirectory, options: PostHogOptions(delivery: delivery),
                    environment: environment
                ))
        }
        let tracker = Tracker(stateDirectory: stateDirectory, providers: providers)
        TrackingSystem.bootstrap(tracker)
        let timeout = Double(environment["CRASH_TEST_ANALYTICS_TIMEOUT"] ?? "").flatMap { $0 >= 0 ? $0 : nil } ?? 5
        return Analytics(tracker: tracker, providers: providers, exitTimeout: .milliseconds(Int(timeout * 1000)))
    }

    /// Lets the provider send what it holds (the opt-out farewell first) for at most
    /// `exitTimeout`, then prints what is left. Blocks the calling thread: a hung events API
    /// cannot hold the exit longer than that.
    func shutdown() {
        let tracker = self.tracker
        let timeout = exitTimeout
        Self.blocking { await tracker.shutdown(within: timeout) }
        guard !providers.isEmpty else { return }
        let queued = providers.reduce(0) { $0 + $1.queuedCount }
        print("crash-test: analytics \(tracker.analyticsConsent.rawValue), \(queued) events queued")
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
