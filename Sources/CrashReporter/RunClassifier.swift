/// How a recorded run ended, from its record and what the kernel says now. Pure: the ledger
/// reads the facts, this decides (docs/runs.md, "Classification").
enum RunClassifier {
    /// What the machine says now about a recorded run's process.
    struct Facts: Sendable {
        /// The boot id now.
        var bootID: String?
        /// The start ticks of the process that has the record's pid now; nil when there is none.
        var startTicksOfPID: UInt64?
        /// The record's OOM counter read now; nil when it cannot be read (the cgroup is gone).
        var oomKillsNow: Int?
    }

    /// The outcome of a run, nil while its process lives. A process is the record's only
    /// while the pid exists with the same start time: a recycled pid is another process.
    static func outcome(of record: RunRecord, facts: Facts) -> LastRun.Outcome? {
        let sameBoot = facts.bootID == nil || facts.bootID == record.bootID
        if sameBoot, let ticks = facts.startTicksOfPID, ticks == record.startTicks { return nil }
        switch record.state {
        case .exited: return .clean
        case .crashed(let id): return .crashed(reportID: id)
        case .running:
            if !sameBoot { return .abnormal(.machineRestart) }
            if let before = record.oomKills, let now = facts.oomKillsNow, now > before { return .abnormal(.oomKill) }
            return .abnormal(.killed)
        }
    }

    /// The failure count after a run with `outcome`, following `previous` failures in a row.
    static func consecutiveFailures(after outcome: LastRun.Outcome, previous: Int) -> Int {
        outcome == .clean ? 0 : previous + 1
    }
}
