import CrashReporterSupport
import Foundation

/// Sentry events as `DATA/events-sentry/<event_id>.json`, one file per event id.
final class SentryEventStore: Sendable {
    let directory: String
    private let count = Lock(0)

    init(dataDirectory: String) throws(SystemError) {
        directory = dataDirectory + "/events-sentry"
        try DurableFile.makeDirectory(directory)
        DurableFile.removeTemporaryFiles(in: directory)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        count.withLock { $0 = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.count }
    }

    /// Stores the event unless one with that id is stored; true when it is new.
    func store(_ payload: Data, eventID: String) throws(SystemError) -> Bool {
        let outcome = try DurableFile.create(payload, name: "\(eventID).json", in: directory)
        if outcome == .created { count.withLock { $0 += 1 } }
        return outcome == .created
    }

    var storedCount: Int { count.withLock { $0 } }
}
