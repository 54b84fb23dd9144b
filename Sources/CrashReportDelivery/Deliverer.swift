import CrashReportFormat
import CrashReporterSupport

/// Works through a state directory's pending reports, oldest first, under the directory
/// lock: decode (a damaged file is rejected with its reason, never retried), symbolicate when
/// the transport wants it, send, and apply `DeliveryPolicy`'s decision. Used by the service's
/// background worker at each launch and by `crashreport upload`.
package struct Deliverer: Sendable {
    package var store: ReportStore
    package var transport: any ReportTransport
    package var policy: DeliveryPolicy
    /// Symbols for a report; nil symbolicates nothing.
    package var symbolicate: (@Sendable (CrashReport) -> ReportSymbols)?
    /// Asked before each report: false means the user opted out since, and pending reports
    /// are deleted instead of sent.
    package var isAllowed: @Sendable () -> Bool
    package var now: @Sendable () -> Timestamp
    package var random: @Sendable () -> Double
    /// The crash-loop cap and the retention bounds (docs/crash-loops.md).
    package var limits = DeliveryLimits()

    package init(
        store: ReportStore,
        transport: any ReportTransport,
        policy: DeliveryPolicy = DeliveryPolicy(),
        symbolicate: (@Sendable (CrashReport) -> ReportSymbols)? = nil,
        isAllowed: @escaping @Sendable () -> Bool = { true },
        now: @escaping @Sendable () -> Timestamp = { .now() },
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
    /// holds the directory lock (it is delivering them). `stop` is asked before each report:
    /// true ends the pass there, and the reports not looked at stay pending as they were.
    package func deliverPending(until stop: () -> Bool = { false }) throws(DeliveryError) -> DeliverySummary {
        guard let lock = DirectoryLock(stateDirectory: store.stateDirectory) else {
            throw .locked(store.stateDirectory)
        }
        defer { withExtendedLifetime(lock) {} }
        var summary = DeliverySummary()
        // What a crash handler could not finish is never sent: set aside with why.
        summary.rejected += store.setAsideIncomplete(now: now())
        // The cap counts a whole pass as one moment: a backlog is capped alike however long it takes.
        let passTime = now()
        var book = beginPass(&summary)
        var pausedUntil = isAllowed() ? sendSummaries(&book, &summary, at: passTime) : nil
        for path in store.pendingReports() {
            if stop() { break }
            // What the running service wrote since the pass began (snapshots, hangs) counts
            // against the bounds too: they hold before each report, not only at the pass's start.
            keepBounds(&book, &summary)
            guard FileSystem.exists(path) else { continue }
            guard isAllowed() else {
                summary.deleted += store.pendingReports().count
                store.deletePending()
                break
            }
            let id = ReportStore.id(of: path)
            var state = store.state(id: id)
            if let paused = pausedUntil {
                // The server just failed or asked us to wait: don't hammer it with the rest.
                summary.retrying[id] = Swift.max(paused, state.nextAttempt ?? paused).seconds
                continue
            }
            if let next = state.nextAttempt, next > now() {
                summary.retrying[id] = next.seconds
                continue
            }
            let bytes: [UInt8]
            let report: CrashReport
            do {
                bytes = try FileSystem.read(path, limit: ReportDecoding.sizeLimit)
                report = try ReportDecoding.decode(gzipData: bytes)
            } catch {
                // Removed meanwhile by the bound the running service keeps: not a damaged report.
                guard FileSystem.exists(path) else { continue }
                try? store.markRejected(path, status: nil, reason: "damaged report: \(error)", now: now())
                summary.rejected.append(id)
                continue
            }
            let wantsSymbols = transport.wantsSymbols || limits.caps
            let symbols = wantsSymbols ? (symbolicate?(report) ?? ReportSymbols()) : ReportSymbols()
            let signature = CrashSignature(report: report, symbols: symbols).description
            guard case .send(let suppressed) = book.decide(signature: signature, now: passTime, limits: limits) else {
                withhold(path, signature: signature, book: &book, summary: &summary)
                continue
            }
            let outcome = transport.send(
                OutgoingReport(
                    id: report.reportID, fileData: bytes, report: report, symbols: symbols,
                    notes: DeliveryNotes(suppressed: suppressed, pruned: book.pruned)))
            switch policy.decide(outcome, state: state, now: now(), random: random()) {
            case .delivered:
                book.recordSent(signature: signature, suppressed: suppressed, now: passTime, limits: limits)
                do {
                    try store.markDelivered(path)
                } catch {
                    // It reached the server; if it cannot be moved it will be sent again and the
                    // server drops the repeat by id. Nothing is lost.
                }
                summary.delivered.append(id)
            case .retry(let at, let next):
                state = next
                try? store.save(state, id: id)
                summary.retrying[id] = at.seconds
                summary.failures[id] = outcome.description
                pausedUntil = at
            case .reject(let status, let reason):
                try? store.markRejected(path, status: status, reason: reason, now: now())
                summary.rejected.append(id)
            }
        }
        endPass(&book, &summary, at: passTime)
        // The runs' sessions ride the same pass, unless the server just failed or asked to wait.
        if pausedUntil == nil, !stop(), isAllowed() { deliverSessions() }
        return summary
    }
}
