import CrashCollectorParsers
import CrashReporterHTTP
import CrashReporterSupport
import Foundation

/// `POST /api/sessions`: the plain transport's sessions, `{"sessions": [...]}` (docs/runs.md),
/// each checked like a Sentry `session` item and stored as `DATA/sessions/<sid>.json`.
extension Collector {
    func receiveSessions(body: Data) -> HTTPResponse {
        guard let list = (try? JSON.parse(body))?.objectValue?["sessions"]?.arrayValue else {
            return Self.error(400, "expected a JSON object with a sessions array")
        }
        guard list.count <= 100 else { return Self.error(400, "more than 100 sessions") }
        var checked: [(JSONValue, String)] = []
        for (index, session) in list.enumerated() {
            switch SessionValidation.check(session) {
            case .success(let sid): checked.append((session, sid))
            case .failure(let reason): return Self.error(400, "session \(index): \(reason)")
            }
        }
        do {
            for (session, sid) in checked {
                _ = try sessions.store(Data(JSON.encode(session)), eventID: sid)
            }
        } catch {
            Log.error("cannot store a session: \(error)")
            return Self.error(500, "cannot store the sessions")
        }
        Log.info("stored \(checked.count) session(s)")
        return .json(200, ["stored": JSONValue(checked.count)])
    }
}
