import CrashReporterSupport

extension Retention {
    /// Pending reports removed by ``keepPendingBound(of:limits:)`` while a pass of this process
    /// held the directory lock: the pass adds them to its count (``takeRemovedByWriter()``).
    private static let removedByWriter = WaitableState(0)

    /// Keeps `pending/` within its bound right after the running service wrote a report (a
    /// snapshot, a hang), so that the bound holds while a slow or failing delivery pass runs, not
    /// only when the next one starts. Under the directory lock when it is free (the removed
    /// reports are counted in the cap's file, as at start); while a pass holds it, the oldest
    /// pending reports go all the same and this process's pass counts them. A report a pass is
    /// reading when it goes is passed over by that pass, never taken for a damaged one.
    package static func keepPendingBound(of store: ReportStore, limits: DeliveryLimits) {
        if let lock = DirectoryLock(stateDirectory: store.stateDirectory) {
            withExtendedLifetime(lock) {
                let removed = removePendingExcess(of: store, limits: limits)
                guard removed > 0 else { return }
                var book = DeliveryCaps.load(stateDirectory: store.stateDirectory)
                book.pruned += removed
                try? book.save(stateDirectory: store.stateDirectory)
            }
        } else {
            let removed = removePendingExcess(of: store, limits: limits)
            if removed > 0 { removedByWriter.withLock { $0 += removed } }
        }
    }

    /// The pending reports removed by the writer since the last call.
    package static func takeRemovedByWriter() -> Int {
        removedByWriter.withLock { count in
            defer { count = 0 }
            return count
        }
    }

    private static func removePendingExcess(of store: ReportStore, limits: DeliveryLimits) -> Int {
        let excess = excess(
            files(in: store.pending), maxCount: limits.maxPendingReports, maxBytes: limits.maxPendingBytes)
        var removed = 0
        for file in excess where store.pendingFolder.remove(ReportStore.id(of: file.path)) {
            removed += 1
        }
        return removed
    }
}
