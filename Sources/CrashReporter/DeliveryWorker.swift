import CrashReportDelivery
import CrashReporterSupport
import CrashSymbolication
import Tracking

/// The next-launch worker: on its own thread, after the handlers are armed, it runs the
/// next-launch pipeline (`NextLaunchPipeline`) over the pending reports (oldest first, under the directory lock) and keeps retrying the ones a
/// server could not take while the process lives, or until it is asked to stop. A report the
/// running process writes (a snapshot, a hang) asks it for one more pass (`deliverNew`).
final class DeliveryWorker: Sendable {
    private let pipeline: NextLaunchPipeline

    /// How a pass ended.
    enum PassOutcome: Sendable {
        case summary(DeliverySummary)
        case locked
    }

    private struct State {
        /// The passes so far, the first one first.
        var passes: [PassOutcome] = []
        var stopRequested = false
        var finished = false
        /// A report was written since the pass began: look again before sleeping or ending.
        var morePending = false
    }

    /// Waiters wake when a pass is added, a stop is asked for, or the thread ends.
    private let state = WaitableState(State())

    init(pipeline: NextLaunchPipeline) {
        self.pipeline = pipeline
    }

    /// Starts the worker's thread (`crash-delivery`, as `top -H` and crash reports show it).
    func start() throws(SystemCallError) {
        try DetachedThread.start(name: "crash-delivery") { [self] in self.run() }
    }

    private func run() {
        while true {
            let result: PassOutcome
            do {
                result = .summary(try pipeline.run(until: { self.state.withLock { $0.stopRequested } }))
            } catch {
                result = .locked
            }
            // Nothing read for symbolication stays in the service between passes: the files it
            // mapped are closed, and the heap it used goes back to the system.
            Symbolicator.releaseCachedFiles()
            MemoryRelease.trimHeap()
            // Said before the pass is published, so that whoever waits for it has heard it.
            diagnose(result)
            state.update { $0.passes.append(result) }
            guard case .summary(let summary) = result, let next = summary.nextPass else {
                // Nothing to retry: end, unless a report came meanwhile (decided under the lock
                // that `deliverNew` takes, so that none is left for the next launch).
                let again = state.update { state -> Bool in
                    if state.morePending && !state.stopRequested {
                        state.morePending = false
                        return true
                    }
                    state.finished = true
                    return false
                }
                if again { continue }
                return
            }
            // Sleep until the earliest retry or crash-loop summary is due (a few minutes at most, then look again), a
            // new report is written, or a stop is asked for.
            let delay = min(max(next - Timestamp.now().seconds, 0.05), 600)
            let woken = state.wait(timeout: delay) { state -> Bool? in
                if state.stopRequested { return true }
                if state.morePending {
                    state.morePending = false
                    return false
                }
                return nil
            }
            if woken == true {
                state.update { $0.finished = true }
                return
            }
        }
    }

    /// Asks for another pass because a report was written. False when the worker has ended
    /// (the caller then starts a new one).
    func deliverNew() -> Bool {
        state.update { state -> Bool in
            if state.finished { return false }
            state.morePending = true
            return true
        }
    }

    /// Tells the service's operators what a pass could not do.
    private func diagnose(_ result: PassOutcome) {
        let store = pipeline.store
        guard case .summary(let summary) = result else {
            Diagnostics.report("another process is delivering the reports in \(store.stateDirectory)", level: .info)
            return
        }
        if !summary.delivered.isEmpty {
            Diagnostics.report("delivered \(summary.delivered.count) crash report(s)", level: .info)
        }
        if !summary.withheld.isEmpty || !summary.summaries.isEmpty || summary.pruned > 0 {
            Diagnostics.report(
                "crash loop: withheld \(summary.withheld.count) identical report(s), sent \(summary.summaries.count) "
                    + "summary(ies); retention removed \(summary.pruned) unsent (docs/crash-loops.md)",
                level: .warning)
        }
        for id in summary.rejected {
            let reason = store.rejection(id: id)?.reason ?? "rejected"
            Diagnostics.report(
                "crash report \(id) was not accepted and is kept in rejected/: \(reason)", level: .warning)
        }
        for (id, reason) in summary.failures.sorted(by: { $0.key < $1.key }) {
            let at = summary.retrying[id].map { Timestamp(seconds: $0).iso8601 } ?? "later"
            Diagnostics.report(
                "could not deliver crash report \(id) (\(reason)); next attempt at \(at)", level: .warning)
        }
    }

    /// Waits until the first pass has finished (or `timeout` seconds pass), and returns it.
    func waitForFirstPass(timeout: Double) -> PassOutcome? {
        state.wait(timeout: timeout) { $0.passes.first }
    }

    /// Asks the worker to stop after the report it is sending (bounded by the upload timeout)
    /// and waits at most `timeout` seconds for its thread to end. True when it has ended.
    func stop(timeout: Double) -> Bool {
        state.update { $0.stopRequested = true }
        return state.wait(timeout: timeout) { $0.finished ? true : nil } != nil
    }

    /// Whether the thread has ended (nothing left to retry, stopped, or another process delivering).
    var isFinished: Bool { state.withLock { $0.finished } }
}
