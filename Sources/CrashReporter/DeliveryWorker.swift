import CrashReportDelivery
import CrashReportFormat
import Foundation
import Synchronization

/// The next-launch worker: on its own thread, after the handlers are armed, it delivers the
/// pending reports (oldest first, under the directory lock) and keeps retrying the ones a
/// server could not take while the process lives.
final class DeliveryWorker: Sendable {
    private let deliverer: Deliverer
    private let passes = Mutex<[DeliveryResult]>([])
    private let condition = NSCondition()

    /// How a pass ended.
    enum DeliveryResult: Sendable {
        case summary(DeliverySummary)
        case locked
    }

    init(deliverer: Deliverer) {
        self.deliverer = deliverer
    }

    func start() {
        let thread = Thread { [self] in self.run() }
        thread.name = "crash-delivery"
        thread.qualityOfService = .utility
        thread.start()
    }

    private func run() {
        while true {
            let result: DeliveryResult
            do {
                result = .summary(try deliverer.deliverPending())
            } catch {
                result = .locked
            }
            condition.lock()
            passes.withLock { $0.append(result) }
            condition.broadcast()
            condition.unlock()
            guard case .summary(let summary) = result, let next = summary.nextAttempt else { return }
            // Sleep until the earliest retry is due (a few minutes at most, then look again).
            let wait = min(max(next.timeIntervalSinceNow, 0.05), 600)
            Thread.sleep(forTimeInterval: wait)
        }
    }

    /// Waits until the first pass has finished (or `timeout`), and returns it.
    func waitForFirstPass(timeout: TimeInterval) -> DeliveryResult? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while passes.withLock({ $0.isEmpty }) {
            if !condition.wait(until: deadline) { break }
        }
        return passes.withLock { $0.first }
    }
}
