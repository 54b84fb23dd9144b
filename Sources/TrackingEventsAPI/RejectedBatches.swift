import CrashReporterSupport
import Tracking

/// Batches a backend refused for good (a status the retry rules drop: 400, 401, 403, …, or a
/// single event still too large after 413s), and sealed batches that cannot be read, set aside
/// for review in `<state>/analytics/rejected/` through the folder queue instead of vanishing:
/// the batch as it was sealed, `<id>.batch` (its events' journal lines, never the backend's key;
/// the id starts with the wire's queue name), and beside it `<id>.reason`, a `RejectionNote`
/// (the status when a server gave one; the backend's name and what it answered; the time). At
/// most `limit` batches are kept, the oldest removed first. They live under `analytics/`, so
/// revoking consent deletes them with the queue and the install id.
enum RejectedBatches {
    static let limit = 20

    /// The review folder every wire sets aside into.
    static func folder(stateDirectory: String) -> OutboxFolder {
        OutboxFolder(
            directory: StateLayout(stateDirectory).rejectedBatches, itemSuffix: StateLayout.Suffix.sealedBatch)
    }

    /// Moves the batch `id` from `outbox` into `review` with why. A failure is reported, never
    /// thrown: the batch leaves the outbox anyway, so that it is not offered again.
    static func setAside(
        _ id: String, from outbox: OutboxFolder, into review: OutboxFolder, status: Int?, reason: String,
        now: Timestamp = .now()
    ) {
        do {
            try outbox.setAside(id, into: review, note: RejectionNote(status: status, reason: reason, at: now))
            review.keepNewest(limit)
        } catch {
            Diagnostics.report("cannot keep the rejected batch for review: \(error)")
            outbox.remove(id)
        }
    }
}
