import CrashReportFormat
import CrashReporterSupport

/// The crash-loop cap and the retention bounds in a delivery pass (docs/crash-loops.md), all
/// under the directory lock that the pass holds.
extension Deliverer {
    /// Applies the retention bounds and reads the cap's book.
    func beginPass(_ summary: inout DeliverySummary) -> DeliveryCaps {
        var book = DeliveryCaps.load(stateDirectory: store.stateDirectory)
        summary.pruned = Retention.apply(to: store, limits: limits, now: now()) + Retention.takeRemovedByWriter()
        book.pruned += summary.pruned
        return book
    }

    /// Applies the retention bounds again within a pass, counting what they removed.
    func keepBounds(_ book: inout DeliveryCaps, _ summary: inout DeliverySummary) {
        let pruned = Retention.apply(to: store, limits: limits, now: now()) + Retention.takeRemovedByWriter()
        summary.pruned += pruned
        book.pruned += pruned
    }

    /// Saves the book and says when the next summary falls due.
    func endPass(_ book: inout DeliveryCaps, _ summary: inout DeliverySummary, at passTime: Timestamp) {
        book.forgetClosed(now: passTime, limits: limits)
        summary.nextSummary = book.nextSummary(limits: limits)
        if book == DeliveryCaps() && !FileSystem.exists(DeliveryCaps.path(stateDirectory: store.stateDirectory)) {
            return
        }
        try? book.save(stateDirectory: store.stateDirectory)
    }

    /// Holds a report back: the cap of its signature is reached in the open window.
    func withhold(_ path: String, signature: String, book: inout DeliveryCaps, summary: inout DeliverySummary) {
        do {
            try store.markWithheld(path)
        } catch {
            // Left in pending/: looked at again by the next pass, never lost.
            return
        }
        let id = ReportStore.id(of: path)
        book.recordWithheld(signature: signature, id: id)
        summary.withheld.append(id)
    }

    /// Sends the summaries whose window has closed: each the newest withheld report of its
    /// signature, carrying the count. Returns when to try again if the server could not take
    /// one (the rest of the pass then waits too), else nil.
    func sendSummaries(_ book: inout DeliveryCaps, _ summary: inout DeliverySummary, at passTime: Timestamp)
        -> Timestamp?
    {
        for due in book.dueSummaries(now: passTime, limits: limits) {
            let path = StateLayout.report(id: due.carrier, in: store.withheld)
            guard let bytes = try? FileSystem.read(path, limit: ReportDecoding.sizeLimit),
                let report = try? ReportDecoding.decode(gzipData: bytes)
            else {
                // Gone (retention) or damaged: the count waits for the next report of its kind.
                book.dropCarrier(due)
                _ = try? FileSystem.remove(path)
                continue
            }
            let symbols = transport.wantsSymbols ? (symbolicate?(report) ?? ReportSymbols()) : ReportSymbols()
            let outcome = transport.send(
                OutgoingReport(
                    id: report.reportID, fileData: bytes, report: report, symbols: symbols,
                    notes: DeliveryNotes(suppressed: due.suppressed, pruned: book.pruned)))
            switch policy.decide(outcome, state: DeliveryState(), now: now(), random: random()) {
            case .delivered:
                try? store.markDelivered(path)
                book.recordSummary(due)
                summary.summaries[due.carrier] = due.suppressed
            case .retry(let at, _):
                book.postpone(due, until: at)
                summary.failures[due.carrier] = outcome.description
                return at
            case .reject(let status, let reason):
                try? store.markRejected(path, status: status, reason: reason, now: now())
                book.recordSummary(due)
                summary.rejected.append(due.carrier)
            }
        }
        return nil
    }
}
