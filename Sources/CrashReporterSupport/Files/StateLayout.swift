/// Every path and file name below a state directory, spelled once. The crash handler (given its
/// paths by `start()`), the report store, the crash-loop cap, the run records, both consent
/// files, the analytics queues and the tools all take theirs from here. Where the state
/// directory itself is (`StateDirectory.resolve`) is not this type's concern: it starts from
/// the root it is given.
///
/// docs/configuration.md ("The state directory") draws the tree of `entries`; a test checks
/// that drawing against this list both ways.
package struct StateLayout: Sendable, Hashable {
    /// The state directory.
    package let root: String

    package init(_ root: String) { self.root = root }

    /// The names of the files and folders, as they appear in a listing.
    package enum Name {
        package static let crashReportingConsent = "crash-reporting.consent"
        package static let analyticsConsent = "analytics.consent"
        package static let deliveryLock = "delivery.lock"
        package static let deliveryCaps = "delivery-caps.json"
        package static let pending = "pending"
        package static let delivered = "delivered"
        package static let rejected = "rejected"
        package static let withheld = "withheld"
        package static let runs = "runs"
        package static let analytics = "analytics"
        /// Before a wire's stem in the name of its outbox lock: `analytics-events.lock`.
        package static let analyticsLockPrefix = "analytics-"
        /// In `runs/`.
        package static let lastRun = "last-run"
        package static let settleLock = "settle.lock"
        package static let runSlotPrefix = "slot-"
        /// In `analytics/`.
        package static let installID = "install-id"
        package static let eventsQueue = "events.queue"
        package static let telemetryDeckQueue = "telemetrydeck.queue"
        package static let postHogQueue = "posthog.queue"
        package static let rejectedBatches = "rejected"
    }

    /// The endings that say what a file is.
    package enum Suffix {
        /// A whole report (gzip JSON).
        package static let report = ".crash"
        /// A report the handler is writing, renamed to `.crash` when whole.
        package static let temporaryReport = ".crash.tmp"
        /// A report whose write failed, followed by the errno: `<id>.crash.failed-28`.
        package static let failedReport = ".crash.failed-"
        /// A pending report's retry state (JSON).
        package static let deliveryState = ".delivery"
        /// An ended run's release-health session (JSON).
        package static let session = ".session"
        /// Why a report was rejected (JSON).
        package static let rejectionReason = ".reason"
        /// A run record.
        package static let runRecord = ".run"
        /// A sealed analytics batch: the journal lines of its events, in a wire's outbox or,
        /// refused or damaged, in `analytics/rejected/`.
        package static let sealedBatch = ".batch"
        /// A wire's outbox of sealed batches, beside its journal: `analytics/events.outbox/`.
        package static let batchOutbox = ".outbox"
        /// A lock file: a wire's outbox lock, `analytics-<queue>.lock`.
        package static let lock = ".lock"
        /// A journal's file name ends so: `events.queue`.
        package static let journal = ".queue"
    }

    // MARK: top level

    package var crashReportingConsent: String { root + "/" + Name.crashReportingConsent }
    package var analyticsConsent: String { root + "/" + Name.analyticsConsent }
    package var deliveryLock: String { root + "/" + Name.deliveryLock }
    package var deliveryCaps: String { root + "/" + Name.deliveryCaps }

    // MARK: reports

    package var pending: String { root + "/" + Name.pending }
    package var delivered: String { root + "/" + Name.delivered }
    package var rejected: String { root + "/" + Name.rejected }
    /// Reports held back by the crash-loop cap (docs/crash-loops.md).
    package var withheld: String { root + "/" + Name.withheld }

    /// `<folder>/<id>.crash`.
    package static func report(id: String, in folder: String) -> String { folder + "/" + id + Suffix.report }
    /// `<folder>/<id>.reason` (only `rejected/` has them).
    package static func rejectionReason(id: String, in folder: String) -> String {
        folder + "/" + id + Suffix.rejectionReason
    }
    package func deliveryState(id: String) -> String { pending + "/" + id + Suffix.deliveryState }
    package func session(sid: String) -> String { pending + "/" + sid + Suffix.session }
    package func rejectionReason(id: String) -> String { Self.rejectionReason(id: id, in: rejected) }

    // MARK: run records (docs/runs.md)

    package var runs: String { root + "/" + Name.runs }
    package var lastRun: String { runs + "/" + Name.lastRun }
    package var settleLock: String { runs + "/" + Name.settleLock }
    package func runSlot(_ number: Int) -> String {
        runs + "/" + Name.runSlotPrefix + String(number) + Suffix.runRecord
    }

    // MARK: analytics (docs/consent.md): only while analytics consent is granted

    package var analytics: String { root + "/" + Name.analytics }
    package var installID: String { analytics + "/" + Name.installID }
    package func analyticsQueue(_ name: String) -> String { analytics + "/" + name }
    /// Refused or damaged batches of every wire, set aside for review.
    package var rejectedBatches: String { analytics + "/" + Name.rejectedBatches }
    /// The sealed batches of the wire whose journal is `analytics/<queue>.queue`:
    /// `analytics/<queue>.outbox` (docs/decisions/0173-analytics-batches-in-the-folder-queue.md).
    package func batchOutbox(_ journalName: String) -> String {
        analytics + "/" + Self.stem(journalName) + Suffix.batchOutbox
    }
    /// `<state>/analytics-<queue>.lock`, flock'ed by the process sealing and sending that wire's
    /// batches. Outside `analytics/`, which revoking consent deletes whole: a lock file that
    /// another process holds is removed only by its holder
    /// (docs/decisions/0185-the-analytics-outbox-lock-is-removed-only-by-its-holder.md).
    package func batchOutboxLock(_ journalName: String) -> String {
        root + "/" + Name.analyticsLockPrefix + Self.stem(journalName) + Suffix.lock
    }

    /// A journal's name without `.queue`: `events`.
    private static func stem(_ journalName: String) -> String {
        journalName.hasSuffix(Suffix.journal) ? String(journalName.dropLast(Suffix.journal.count)) : journalName
    }

    // MARK: the entries, as docs/configuration.md draws them

    /// Every kind of file a state directory holds, as a path below the root with `<…>` for
    /// what varies.
    package static let entries: [String] = [
        Name.crashReportingConsent,
        Name.analyticsConsent,
        Name.deliveryLock,
        Name.analyticsLockPrefix + "<queue>" + Suffix.lock,
        Name.deliveryCaps,
        "<file>" + FileSystem.temporaryMarker + "<pid>-<n>",
        Name.pending + "/<id>" + Suffix.report,
        Name.pending + "/<id>" + Suffix.temporaryReport,
        Name.pending + "/<id>" + Suffix.failedReport + "<errno>",
        Name.pending + "/<id>" + Suffix.deliveryState,
        Name.pending + "/<sid>" + Suffix.session,
        Name.delivered + "/<id>" + Suffix.report,
        Name.rejected + "/<id>" + Suffix.report,
        Name.rejected + "/<id>" + Suffix.rejectionReason,
        Name.withheld + "/<id>" + Suffix.report,
        Name.runs + "/" + Name.runSlotPrefix + "<n>" + Suffix.runRecord,
        Name.runs + "/" + Name.lastRun,
        Name.runs + "/" + Name.settleLock,
        Name.analytics + "/" + Name.installID,
        Name.analytics + "/" + Name.eventsQueue,
        Name.analytics + "/" + Name.telemetryDeckQueue,
        Name.analytics + "/" + Name.postHogQueue,
        Name.analytics + "/<queue>" + Suffix.batchOutbox + "/<id>" + Suffix.sealedBatch,
        Name.analytics + "/" + Name.rejectedBatches + "/<id>" + Suffix.sealedBatch,
        Name.analytics + "/" + Name.rejectedBatches + "/<id>" + Suffix.rejectionReason,
    ]
}
