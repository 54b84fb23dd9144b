import CrashReporterSupport

/// A run of the service that has ended, as a later launch found it (docs/runs.md): what a
/// release-health session is made of, in no server's format. The entry point hands these over
/// (`ReportStore.keepSession(of:)`), and the delivery side turns each into the session its
/// transport sends.
package struct EndedRun: Sendable, Equatable {
    /// How the run ended.
    package enum Ending: String, Sendable, Equatable {
        /// It exited (cleanly or not, but by itself).
        case exited
        /// It crashed: the handler wrote a report.
        case crashed
        /// It ended without saying how (killed, out of memory, the machine restarted).
        case abnormal
    }

    package var started: Timestamp
    /// When it ended, as far as the launch that found it can tell (an upper bound).
    package var ended: Timestamp
    package var ending: Ending
    /// The service's version; nil when it gave none.
    package var release: String?
    /// The service's environment; nil when it gave none.
    package var environment: String?

    package init(started: Timestamp, ended: Timestamp, ending: Ending, release: String?, environment: String?) {
        self.started = started
        self.ended = ended
        self.ending = ending
        self.release = release
        self.environment = environment
    }
}
