extension CrashReport {
    /// `abnormal_exit`: how a run ended that neither exited cleanly nor crashed with a report,
    /// as the next launch found it (schema version 3; null in every other kind).
    public struct AbnormalExit: Codable, Sendable, Equatable {
        /// What most likely ended the run.
        public var exitClass: ExitClass
        /// When the run started, Unix milliseconds. The report's `timestamp` is when the next
        /// launch found the run over (for a machine restart, when the machine booted again): an
        /// upper bound of the end, and `uptime_ms` the run's length up to it.
        public var runStartedMs: Int64

        /// An abnormal exit of `exitClass` of the run that started at `runStartedMs`.
        public init(exitClass: ExitClass, runStartedMs: Int64) {
            self.exitClass = exitClass
            self.runStartedMs = runStartedMs
        }

        enum CodingKeys: String, CodingKey {
            case exitClass = "class"
            case runStartedMs = "run_started_ms"
        }
    }

    /// `abnormal_exit.class`.
    public enum ExitClass: String, Codable, Sendable, CaseIterable {
        /// The memory cgroup's OOM killer counted a kill while the run lived.
        case oomKill = "oom_kill"
        /// The machine restarted (the kernel's boot id changed) while the run lived.
        case machineRestart = "machine_restart"
        /// Anything else that ended the process without a signal the reporter saw: SIGKILL,
        /// a signal whose default action ends the process while the service had replaced ours.
        case killed

        /// What the class means, in a sentence for an event's message.
        public var summary: String {
            switch self {
            case .oomKill: "killed by the out-of-memory killer of its memory cgroup"
            case .machineRestart: "the machine restarted while it ran"
            case .killed: "killed without a signal the reporter saw (SIGKILL or similar)"
            }
        }
    }
}
