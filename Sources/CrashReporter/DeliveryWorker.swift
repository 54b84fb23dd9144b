import CrashReportDelivery
import CrashReporterSupport

/// The next-launch worker: on its own thread, after the handlers are armed, it delivers the
/// pending reports (oldest first, under the directory lock) and keeps retrying the ones a
/// server could not take while the process lives.
final class DeliveryWorker: Sendable {
    private let deliverer: Deliverer
    /// The passes so far, the first one first; waiters wake when one is added.
    private let passes = Monitor<[DeliveryResult]>([])

    /// How a pass ended.
    enum DeliveryResult: Sendable {
        case summary(DeliverySummary)
        case locked
    }

    init(deliverer: Deliverer) {
        self.deliverer = deliverer
    }

    /// Starts the worker's thread (`crash-delivery`, as `top -H` and crash reports show it).
    func start() throws(SystemError) {
        try DetachedThread.start(name: "crash-delivery") { [self] in self.run() }
    }

    private func run() {
        while true {
            let result: DeliveryResult
            do {
                result = .summary(try deliverer.deliverPending())
            } catch {
                result = .locked
            }
            passes.update { $0.append(result) }
            guard case .summary(let summary) = result, let next = summary.nextAttempt else { return }
            // Sleep until the earliest retry is due (a few minutes at most, then look again).
            sleep(seconds: min(max(next - Timestamp.now().seconds, 0.05), 600))
        }
    }

    /// Waits until the first pass has finished (or `timeout` seconds pass), and returns it.
    func waitForFirstPass(timeout: Double) -> DeliveryResult? {
        passes.wait(timeout: timeout) { $0.first }
    }
}
