import CrashReportFormat
import Foundation

/// What one delivery pass did.
public struct DeliverySummary: Sendable, Equatable {
    public var delivered: [String] = []
    public var rejected: [String] = []
    /// Kept for a later attempt, with the time of that attempt.
    public var retrying: [String: Date] = [:]
    /// Deleted because the user opted out of crash reporting.
    public var deleted = 0

    public init() {}

    /// The earliest time a kept report is due again.
    public var nextAttempt: Date? { retrying.values.min() }
}

/// Works through a state directory's pending reports, oldest first, under the directory
/// lock: decode (a damaged file is rejected with its reason, never retried), symbolicate when
/// the transport wants it, send, and apply `DeliveryPolicy`'s decision. Used by the service's
/// background worker at each launch and by `crashreport upload`.
public struct Deliverer: Sendable {
    public var store: ReportStore
    public var transport: any ReportTransport
    public var policy: DeliveryPolicy
    /// Symbols for a report; nil symbolicates nothing.
    public var symbolicate: (@Sendable (CrashReport) -> [Int: [FrameSymbol]])?
    /// Asked before each report: false means the user opted out since, and pending reports
    /// are deleted instead of sent.
    public var isAllowed: @Sendable () -> Bool
    public var now: @Sendable () -> Date
    public var random: @Sendable () -> Double

    public init(
        store: ReportStore,
        transport: any ReportTransport,
        policy: DeliveryPolicy = DeliveryPolicy(),
        symbolicate: (@Sendable (CrashReport) -> [Int: [FrameSymbol]])? = nil,
        isAllowed: @escaping @Sendable () -> Bool = { true },
        now: @escaping @Sendable () -> Date = { Date() },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.store = store
        self.transport = transport
        self.policy = policy
        self.symbolicate = symbolicate
        self.isAllowed = isAllowed
        self.now = now
        self.random = random
    }

    /// One pass over the pending reports. Throws `DeliveryError.locked` when another process
    /// holds the directory lock (it is delivering them).
    public func deliverPending() throws(DeliveryError) -> DeliverySummary {
        guard let lock = DirectoryLock(stateDirectory: store.stateDirectory) else {
            throw .locked(store.stateDirectory.path)
        }
        defer { withExtendedLifetime(lock) {} }
        var summary = DeliverySummary()
        var pausedUntil: Date?
        for url in store.pendingReports() {
            guard isAllowed() else {
                summary.deleted += store.pendingReports().count
                store.deletePending()
                break
            }
            let id = ReportStore.id(of: url)
            var state = store.state(id: id)
            if let paused = pausedUntil {
                // The server just failed or asked us to wait: don't hammer it with the rest.
                summary.retrying[id] = Swift.max(paused, state.nextAttempt ?? paused)
                continue
            }
            if let next = state.nextAttempt, next > now() {
                summary.retrying[id] = next
                continue
            }
            let data: Data
            let report: CrashReport
            do {
                data = try Data(contentsOf: url)
                report = try ReportDecoding.decode(gzipData: data)
            } catch {
                try? store.markRejected(url, status: nil, reason: "damaged report: \(error)", now: now())
                summary.rejected.append(id)
                continue
            }
            let symbols = transport.wantsSymbols ? (symbolicate?(report) ?? [:]) : [:]
            let outcome = transport.send(
                OutgoingReport(id: report.reportID, fileData: data, report: report, symbols: symbols))
            switch policy.decide(outcome, state: state, now: now(), random: random()) {
            case .delivered:
                do {
                    try store.markDelivered(url)
                } catch {
                    // It reached the server; if it cannot be moved it will be sent again and the
                    // server drops the repeat by id. Nothing is lost.
                }
                summary.delivered.append(id)
            case .retry(let at, let next):
                state = next
                try? store.save(state, id: id)
                summary.retrying[id] = at
                pausedUntil = at
            case .reject(let status, let reason):
                try? store.markRejected(url, status: status, reason: reason, now: now())
                summary.rejected.append(id)
            }
        }
        return summary
    }
}
