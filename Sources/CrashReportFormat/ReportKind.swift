extension CrashReport {
    /// `kind`: what made the process write the report (schema version 2; a version 1 report is
    /// always a crash).
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// A fatal signal: `crash` says which, and the process died of it.
        case crash
        /// Asked for by the service (a capture of every thread's stack); the process went on.
        case snapshot
        /// A heartbeat was late: the watchdog captured every thread's stack; the process went on.
        case hang
        /// A run that ended without exiting and without a crash report (killed, out of memory,
        /// machine restart), written by the next launch: no stack (schema version 3).
        case abnormalExit = "abnormal_exit"

        /// `Crash`, `Snapshot`, `Hang`, `Abnormal exit`: how a title names the report.
        public var title: String {
            switch self {
            case .crash: "Crash"
            case .snapshot: "Snapshot"
            case .hang: "Hang"
            case .abnormalExit: "Abnormal exit"
            }
        }
    }
}
