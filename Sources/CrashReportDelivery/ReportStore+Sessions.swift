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

    /// Pending session files, oldest first (by file time, then name).
    package func pendingSessionFiles() -> [String] {
        let names = ((try? FileSystem.contentsOfDirectory(pending)) ?? []).filter {
            $0.hasSuffix(StateLayout.Suffix.session)
        }
        let dated = names.map { name in
            let path = pending + "/" + name
            return (path: path, time: FileSystem.modificationTime(path) ?? -.infinity)
        }
        return dated.sorted { $0.time != $1.time ? $0.time < $1.time : $0.path < $1.path }.map(\.path)
    }

    /// Whether a session waits to be sent.
    package var hasPendingSessions: Bool {
        ((try? FileSystem.contentsOfDirectory(pending)) ?? []).contains { $0.hasSuffix(StateLayout.Suffix.session) }
    }

    /// Keeps a session for the next delivery pass, dropping the oldest beyond the bound.
    package func saveSession(_ session: SentrySession) throws {
        try FileSystem.createDirectory(pending)
        try FileSystem.writeAtomically(JSON.encode(session), to: layout.session(sid: session.sid))
        for old in pendingSessionFiles().dropLast(Self.maxPendingSessions) {
            _ = try? FileSystem.remove(old)
        }
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

extension Deliverer {
    /// Sends the pending sessions in one request (up to 100, Sentry's bound per envelope; the
    /// rest go in the next pass). Accepted or refused for good: they are removed. A failure
    /// worth retrying keeps them for the next pass or the next launch.
    package func deliverSessions() {
        let files = Array(store.pendingSessionFiles().prefix(100))
        guard !files.isEmpty else { return }
        var sessions: [SentrySession] = []
        var sent: [String] = []
        for path in files {
            guard let session = store.readSession(path) else { continue }
            sessions.append(session)
            sent.append(path)
        }
        guard !sessions.isEmpty else { return }
        switch policy.decide(transport.send(sessions: sessions), state: DeliveryState(), now: now(), random: random()) {
        case .delivered, .reject:
            for path in sent { _ = try? FileSystem.remove(path) }
        case .retry:
            break
        }
    }
}
