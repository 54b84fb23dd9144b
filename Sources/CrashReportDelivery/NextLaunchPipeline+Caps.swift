import CrashReportFormat
import CrashReporterSupport

/// The crash-loop cap and the retention bounds in a pass of the pipeline (docs/crash-loops.md),
/// all under the directory lock that the pass holds.
extension NextLaunchPipeline {
    /// Opens a pass: what a crash handler could not finish set aside, the retention bounds
    /// applied, and the cap's book read.
    func beginPass() -> Pass {
        var summary = DeliverySummary()
        // What a crash handler could not finish is never sent: set aside with why.
        summary.rejected += store.setAsideIncomplete(now: now())
        let time = now()
        var book = DeliveryCaps.load(stateDirectory: store.stateDirectory)
        summary.pruned = Retention.apply(to: store, limits: limits, now: now()) + Retention.takeRemovedByWriter()
        book.pruned += summary.pruned
        return Pass(time: time, book: book, summary: summary)
    }

    /// Applies the retention bounds again within a pass, counting what they removed.
    func keepBounds(_ pass: inout Pass) {
        let pruned = Retention.apply(to: store, limits: limits, now: now()) + Retention.takeRemovedByWriter()
        pass.summary.pruned += pruned
        pass.book.pruned += pruned
    }

    /// Saves the book and says when the next summary falls due.
    func endPass(_ pass: inout Pass) {
        pass.book.forgetClosed(now: pass.time, limits: limits)
        pass.summary.nextSummary = pass.book.nextSummary(limits: limits)
        if pass.book == DeliveryCaps() && !FileSystem.exists(DeliveryCaps.path(stateDirectory: store.stateDirectory)) {
            return
        }
        try? pass.book.save(stateDirectory: store.stateDirectory)
    }

    /// Holds a report back: the cap of its signature is reached in the open window.
    func withhold(_ path: String, signature: String, in pass: inout Pass) {
        do {
            try store.markWithheld(path)
        } catch {
            // Left in pending/: looked at again by the next pass, never lost.
            return
        }
        let id = ReportStore.id(of: path)
        pass.book.recordWithheld(signature: signature, id: id)
        pass.summary.withheld.append(id)
    }

    /// Sends the summaries whose window has closed, through the same stages as a report: each
    /// the newest withheld report of its signature, carrying the count. When the server could
    /// not take one, the rest of the pass waits too (`pass.pausedUntil`).
    func sendSummaries(_ pass: inout Pass) {
        for due in pass.book.dueSummaries(now: pass.time, limits: limits) {
            let path = StateLayout.report(id: due.carrier, in: store.withheld)
            guard let bytes = try? FileSystem.read(path, limit: ReportDecoding.sizeLimit),
                let report = try? ReportDecoding.decode(gzipData: bytes)
            else {
                // Gone (retention) or damaged: the count waits for the next report of its kind.
                pass.book.dropCarrier(due)
                _ = try? FileSystem.remove(path)
                continue
            }
            let symbols = symbolicate(report, forSignature: false)
            let outcome = send(
                encode(
                    OutgoingReport(
                        id: report.reportID, fileData: bytes, report: report, symbols: symbols,
                        notes: DeliveryNotes(suppressed: due.suppressed, pruned: pass.book.pruned))))
            switch policy.decide(outcome, state: DeliveryState(), now: now(), random: random()) {
            case .delivered:
                try? store.markDelivered(path)
                pass.book.recordSummary(due)
                pass.summary.summaries[due.carrier] = due.suppressed
            case .retry(let at, _):
                pass.book.postpone(due, until: at)
                pass.summary.failures[due.carrier] = outcome.description
                pass.pausedUntil = at
                return
            case .reject(let status, let reason):
                try? store.markRejected(path, status: status, reason: reason, now: now())
                pass.book.recordSummary(due)
                pass.summary.rejected.append(due.carrier)
            }
        }
    }
}
