import CrashReporterSupport

/// Every path below the collector's data directory (`--data`), spelled once; the stores take
/// theirs from here. A report's ending is the reporter's own (`StateLayout.Suffix.report`).
/// docs/collector.md ("Storage") draws the tree.
struct CollectorDataLayout: Sendable {
    /// The data directory.
    let root: String

    init(_ root: String) { self.root = root }

    /// The names of the files and folders, as they appear in a listing.
    enum Name {
        static let reports = "reports"
        static let reportsIndex = "reports-index.jsonl"
        static let events = "events"
        /// In `events/`.
        static let eventsLog = "events.jsonl"
        static let sentryEvents = "events-sentry"
        static let sentrySessions = "sessions-sentry"
        static let sessions = "sessions"
        static let otlpLogs = "logs-otlp"
    }

    /// The ending of a stored Sentry event, session or log record.
    static let jsonSuffix = ".json"

    var reports: String { root + "/" + Name.reports }
    var reportsIndex: String { root + "/" + Name.reportsIndex }
    var events: String { root + "/" + Name.events }
    var eventsLog: String { events + "/" + Name.eventsLog }

    /// The folder of one kind of JSON file (`Name.sentryEvents`, `Name.sessions`, …).
    func folder(_ name: String) -> String { root + "/" + name }

    /// `<reports>/<id>.crash`.
    func report(id: String) -> String { StateLayout.report(id: id, in: reports) }

    /// The id of a stored report's file name; nil for any other file (hidden ones included).
    static func reportID(fileName name: String) -> String? {
        guard name.hasSuffix(StateLayout.Suffix.report), !name.hasPrefix(".") else { return nil }
        return String(name.dropLast(StateLayout.Suffix.report.count))
    }

    /// `<folder>/<id>.json`.
    static func jsonFile(id: String, in folder: String) -> String { folder + "/" + id + jsonSuffix }

    /// Whether a file name is a stored JSON file (not a hidden temporary one).
    static func isJSONFile(_ name: String) -> Bool { name.hasSuffix(jsonSuffix) && !name.hasPrefix(".") }
}
