import CrashReporterSupport

/// Keeps a state directory within its bounds (`DeliveryLimits`): `pending/` and `withheld/`
/// each hold at most `maxPendingReports` reports and `maxPendingBytes` bytes, and
/// `delivered/`, `rejected/` and `withheld/` keep a report at most `retention`. The oldest
/// go first. Run under the directory lock at the start of each delivery pass.
package enum Retention {
    /// A report file with what the bounds look at.
    package struct File: Sendable, Equatable {
        package var path: String
        package var bytes: Int
        /// Seconds since 1970.
        package var time: Double
    }

    /// The files to remove so that `files` (oldest first) keep within `maxCount` files and
    /// `maxBytes` bytes (0: no bound), and none is older than `maxAge` seconds before `now`
    /// (0: no bound): the oldest first, and only as many as needed.
    package static func excess(
        _ files: [File], maxCount: Int, maxBytes: Int, maxAge: Double = 0, now: Double = 0
    ) -> [File] {
        var count = files.count
        var bytes = files.reduce(0) { $0 + $1.bytes }
        var removed: [File] = []
        for file in files {
            let tooOld = maxAge > 0 && now - file.time > maxAge
            let tooMany = maxCount > 0 && count > maxCount
            let tooBig = maxBytes > 0 && bytes > maxBytes
            guard tooOld || tooMany || tooBig else { break }
            removed.append(file)
            count -= 1
            bytes -= file.bytes
        }
        return removed
    }

    /// The `.crash` files of a folder, oldest first, with their sizes.
    static func files(in directory: String) -> [File] {
        ReportStore.reports(in: directory).map { path in
            File(path: path, bytes: FileSystem.size(path) ?? 0, time: FileSystem.modificationTime(path) ?? 0)
        }
    }

    /// What the bounds remove from `store`'s folders: the unsent pending reports, and the
    /// others (withheld, delivered, rejected), each with its folder.
    static func plan(_ store: ReportStore, limits: DeliveryLimits, now: Timestamp) -> (
        pending: [File], others: [(folder: String, file: File)]
    ) {
        let maxAge = limits.retention.inSeconds
        let pending = excess(
            files(in: store.pending), maxCount: limits.maxPendingReports, maxBytes: limits.maxPendingBytes)
        var others = excess(
            files(in: store.withheld), maxCount: limits.maxPendingReports, maxBytes: limits.maxPendingBytes,
            maxAge: maxAge, now: now.seconds
        ).map { (folder: store.withheld, file: $0) }
        if maxAge > 0 {
            for folder in [store.delivered, store.rejected] {
                others += excess(files(in: folder), maxCount: 0, maxBytes: 0, maxAge: maxAge, now: now.seconds)
                    .map { (folder: folder, file: $0) }
            }
        }
        return (pending, others)
    }

    /// Applies the bounds to `store`'s folders. Returns how many pending reports were removed
    /// unsent (withheld ones are counted already, delivered and rejected ones were dealt with).
    package static func apply(to store: ReportStore, limits: DeliveryLimits, now: Timestamp) -> Int {
        let (pending, others) = plan(store, limits: limits, now: now)
        var prunedPending = 0
        for file in pending where store.pendingFolder.remove(ReportStore.id(of: file.path)) {
            prunedPending += 1
        }
        for (folder, file) in others {
            // A rejected report's note goes with it.
            ReportStore.reportFolder(folder).remove(ReportStore.id(of: file.path))
        }
        return prunedPending
    }
}

extension Retention {
    /// Applies the bounds outside a delivery pass (a service with no destination, at start),
    /// under the directory lock, and counts the pending reports removed in the cap's file so
    /// that a later delivery reports them. Does nothing while another process holds the lock
    /// (its pass applies the bounds).
    package static func applyLocked(to store: ReportStore, limits: DeliveryLimits, now: Timestamp = .now()) {
        // The lock file is made only when something is to be removed: most starts have nothing.
        let work = plan(store, limits: limits, now: now)
        guard !work.pending.isEmpty || !work.others.isEmpty,
            let lock = DirectoryLock(stateDirectory: store.stateDirectory)
        else { return }
        defer { withExtendedLifetime(lock) {} }
        let removed = apply(to: store, limits: limits, now: now)
        guard removed > 0 else { return }
        var book = DeliveryCaps.load(stateDirectory: store.stateDirectory)
        book.pruned += removed
        try? book.save(stateDirectory: store.stateDirectory)
    }
}
