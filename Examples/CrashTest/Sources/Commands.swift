import CrashReporter
import Foundation
import Tracking

// The commands that do not crash and do not record the crash test's breadcrumbs.

/// `consent crash-reporting on|off`: stores the crash-reporting choice (never the analytics
/// one) and tracks the change, which reaches analytics only if the user granted it.
func setCrashReporting(enabled: Bool) -> Never {
    do {
        try CrashReportingConsent.set(enabled: enabled, stateDirectory: stateDirectory())
    } catch {
        FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
        exit(1)
    }
    print("crash-test: crash reporting \(enabled ? "on" : "off")")
    let analytics = bootstrapAnalytics()
    track(CrashTestEvent.crashReportingChanged(enabled: enabled))
    analytics.shutdown()
    exit(0)
}

/// `consent analytics grant|deny`: stores the analytics choice (never the crash-reporting
/// one) through the tracker, so that `analytics_opted_in` is tracked after a grant and
/// `analytics_opted_out` is sent before the guard closes, then waits (bounded) for them to go.
func setAnalytics(granted: Bool) -> Never {
    let analytics = bootstrapAnalytics()
    do {
        try analytics.tracker.setAnalyticsConsent(granted: granted)
    } catch {
        FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
        exit(1)
    }
    print("crash-test: analytics \(granted ? "granted" : "denied")")
    analytics.shutdown()
    exit(0)
}

/// `serve SECONDS`: stays up like a service, tracking a heartbeat every tick
/// (`CRASH_TEST_TICK_MS`); the events-API provider sends on its own schedule meanwhile.
func serve(seconds: Double) -> Never {
    let analytics = bootstrapAnalytics()
    track(CrashTestEvent.appLaunched(command: .serve))
    _ = CrashReporter.lastRun  // start()'s settle is done: this run's record exists before a test may kill it
    print("crash-test: serving for \(seconds) s")
    fflush(nil)  // the line says it is tracking; a test may kill it any time after
    let tick =
        Double(ProcessInfo.processInfo.environment["CRASH_TEST_TICK_MS"] ?? "").flatMap { $0 > 0 ? $0 : nil }
        ?? 1000
    if let ms = Int(ProcessInfo.processInfo.environment["CRASH_TEST_SELF_QUIT_MS"] ?? ""), ms >= 0 {
        startThread(named: "self-quit") {
            // To a deadline: a snapshot's capture signal interrupts a sleep (EINTR).
            let end = ContinuousClock.now + .milliseconds(ms)
            while ContinuousClock.now < end { usleep(1000) }
            kill(getpid(), SIGQUIT)
        }
    }
    if let reason = ProcessInfo.processInfo.environment["CRASH_TEST_SNAPSHOT_REASON"] {
        startThread(named: "snapshotter") {
            usleep(200_000)
            let id = CrashReporter.snapshot(reason: reason)
            print("crash-test: snapshot \(id ?? "not written")")
            fflush(nil)
        }
    }
    let clock = ContinuousClock()
    let end = clock.now + .milliseconds(Int(seconds * 1000))
    var sequence = 0
    while clock.now < end {
        sequence += 1
        track(CrashTestEvent.heartbeat(sequence: sequence))
        let left = end - clock.now
        let wait = min(tick / 1000, Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18)
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
    }
    print("crash-test: served \(sequence) heartbeats")
    analytics.shutdown()
    exit(0)
}

/// `KEY=VALUE` pairs as typed parameters: integers, `true`/`false`, else strings.
func parseParameters(_ pairs: ArraySlice<String>) -> [String: TrackingValue] {
    var parameters: [String: TrackingValue] = [:]
    for pair in pairs {
        guard let eq = pair.firstIndex(of: "="), eq != pair.startIndex else {
            fail("expected KEY=VALUE, not '\(pair)'")
        }
        let key = String(pair[..<eq])
        let text = String(pair[pair.index(after: eq)...])
        if let number = Int(text) {
            parameters[key] = .int(number)
        } else if text == "true" || text == "false" {
            parameters[key] = .bool(text == "true")
        } else {
            parameters[key] = .string(text)
        }
    }
    return parameters
}
