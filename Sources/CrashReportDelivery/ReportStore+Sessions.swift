import CrashReportSentry
import CrashReporterSupport

/// The release-health sessions waiting to be sent, beside the reports:
///
/// ```
/// pending/<sid>.session         one ended run, as JSON (SentrySession), until a server took it
/// ```
///
/// At most `maxPendingSessions` are kept; beyond that the oldest are dropped, so a service
/// that restarts in a loop with no server reachable does not fill its disk with them.
extension ReportStore {
    package static let maxPendingSessions = 200
    /// A session file larger than this is not one of ours.
    static let sessionSizeLimit = 16 << 10

    /// The sessions of `pending/`: a folder queue of `.session` files beside the reports.
    var sessionFolder: OutboxFolder { OutboxFolder(directory: pending, itemSuffix: StateLayout.Suffix.session) }

    /// Pending session files, oldest first (by file time, then name).
    package func pendingSessionFiles() -> [String] { sessionFolder.items() }

    /// Whether a session waits to be sent.
    package var hasPendingSessions: Bool { sessionFolder.hasItems }

    /// Keeps the session of an ended run for the next delivery pass, dropping the oldest
    /// beyond the bound. The session gets a fresh random id.
    package func keepSession(of run: EndedRun) throws {
        try save(Self.session(of: run))
    }

    /// The release-health session of an ended run.
    static func session(of run: EndedRun) -> SentrySession {
        let status: SentrySession.Status =
            switch run.ending {
            case .exited: .exited
            case .crashed: .crashed
            case .abnormal: .abnormal
            }
        return SentrySession(
            sid: UUIDBytes.random().description, started: run.started, ended: run.ended, status: status,
            release: run.release, environment: run.environment)
    }

    /// Writes a session into `pending/`, dropping the oldest beyond the bound.
    func save(_ session: SentrySession) throws {
        try sessionFolder.add(JSON.encode(session), id: session.sid)
        sessionFolder.keepNewest(Self.maxPendingSessions)
    }

    /// A pending session read back; nil (and the file removed) when it is damaged.
    func readSession(_ path: String) -> SentrySession? {
        if let bytes = try? FileSystem.read(path, limit: Self.sessionSizeLimit),
            let session = try? JSON.decode(SentrySession.self, from: bytes)
        {
            return session
        }
        _ = try? FileSystem.remove(path)
        return nil
    }
}
