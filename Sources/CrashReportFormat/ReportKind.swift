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

        /// `Crash`, `Snapshot`, `Hang`: how a title names the report.
        public var title: String {
            switch self {
            case .crash: "Crash"
            case .snapshot: "Snapshot"
            case .hang: "Hang"
            }
        }
    }
}
