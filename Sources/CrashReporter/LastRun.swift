import CrashReportFormat

/// How the previous run of this service ended, as `start` found it (`CrashReporter.lastRun`).
public struct LastRun: Sendable, Equatable {
    /// How a run ended.
    public enum Outcome: Sendable, Equatable {
        /// `exit`, a return from `main`, or a SIGTERM/SIGINT.
        case clean
        /// A crash; the id of its report, nil when the handler could not write one.
        case crashed(reportID: String?)
        /// Ended without either: see ``AbnormalExit``.
        case abnormal(AbnormalExit)
    }

    /// What ended a run that neither exited cleanly nor crashed with a report: the class its
    /// abnormal-exit report carries (`oomKill`, `machineRestart`, `killed`), one type for both.
    public typealias AbnormalExit = CrashReport.ExitClass

    /// How the previous run ended.
    public var outcome: Outcome
    /// How many runs in a row ended in a crash or abnormally, this one included: 0 after a
    /// clean run. A service can enter a safe mode past a few.
    public var consecutiveFailures: Int

    /// A previous run that ended with `outcome`, the last of `consecutiveFailures` failed runs in a row.
    public init(outcome: Outcome, consecutiveFailures: Int) {
        self.outcome = outcome
        self.consecutiveFailures = consecutiveFailures
    }

    /// Whether the run crashed or ended abnormally.
    public var failed: Bool { outcome != .clean }
}
