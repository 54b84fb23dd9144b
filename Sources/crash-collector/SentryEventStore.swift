import CrashReporterSupport
import Foundation

/// Sentry events as `DATA/events-sentry/<event_id>.json`, one file per event id; the same for
/// sessions in `sessions-sentry/` (from envelopes) and `sessions/` (from `POST /api/sessions`),
/// one file per session id, and OTLP log records in `logs-otlp/`, one per report id.
final class SentryEventStore: Sendable {
    let directory: String
    private let count = Lock(0)

    init(dataDirectory: String, folder: String = CollectorDataLayout.Name.sentryEvents) throws(FileError) {
        directory = CollectorDataLayout(dataDirectory).folder(folder)
        try DataDirectory.create(directory)
        DataDirectory.removeStaleTemporaryFiles(in: directory)
        let names = (try? FileSystem.contentsOfDirectory(directory)) ?? []
        count.withLock { $0 = names.filter(CollectorDataLayout.isJSONFile).count }
    }

    /// Stores the event unless one with that id is stored; true when it is new.
    func store(_ payload: Data, eventID: String) throws(FileError) -> Bool {
        let path = CollectorDataLayout.jsonFile(id: eventID, in: directory)
        let outcome = try FileSystem.createExclusively(payload, at: path, mode: DataDirectory.fileMode)
        if outcome == .created { count.withLock { $0 += 1 } }
        return outcome == .created
    }

    var storedCount: Int { count.withLock { $0 } }

    /// The stored files' bytes, in no order (one that cannot be read is left out).
    func storedFiles() -> [[UInt8]] {
        let names = (try? FileSystem.contentsOfDirectory(directory)) ?? []
        return names.filter(CollectorDataLayout.isJSONFile).compactMap { name in
            try? FileSystem.read("\(directory)/\(name)", limit: DataDirectory.maxReadBytes)
        }
    }
}
