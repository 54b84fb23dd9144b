import CrashReportFormat
import Foundation
import TestSupport

/// Real reports: the committed one (made by `crash-test crash segfault`) and variants of it.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static var segfault: Data {
        get throws { try Data(contentsOf: directory.appendingPathComponent("segfault.crash")) }
    }

    static var segfaultID: String {
        get throws { try ReportDecoding.decode(gzipData: segfault).reportID }
    }

    /// The fixture with a new report id and, optionally, another app name and version.
    static func variant(id: String = UUID().uuidString.lowercased(), app: String? = nil, version: String? = nil) throws
        -> (id: String, data: Data)
    {
        let json = Data(try Gzip.decompress(segfault))
        guard var object = try JSONSerialization.jsonObject(with: json) as? [String: Any],
            var appObject = object["app"] as? [String: Any]
        else { throw TestFailure("fixture is not a report object") }
        object["report_id"] = id
        if let app { appObject["name"] = app }
        if let version { appObject["version"] = version }
        object["app"] = appObject
        let data = Data(try Gzip.compress(JSONSerialization.data(withJSONObject: object)))
        _ = try ReportDecoding.decode(gzipData: data)  // still a valid report
        return (id, data)
    }

    /// The fixture's process as a schema version 2 hang (`kind` `.hang`) or snapshot: no crash,
    /// the crashed thread's stack as the main thread's, and a second thread that did not answer.
    /// A hang's late heartbeat is "db-poller" of the main thread, 2.5 s late.
    static func withoutCrash(_ kind: CrashReport.Kind, id: String = UUID().uuidString.lowercased()) throws
        -> (id: String, report: CrashReport, data: Data)
    {
        var report = try ReportDecoding.decode(gzipData: segfault)
        guard let crash = report.crash else { throw TestFailure("the fixture is a crash") }
        var main = CrashReport.CapturedThread(crashing: crash)
        main.crashed = false
        report.reportID = id
        report.schemaVersion = 2
        report.kind = kind
        report.crash = nil
        report.snapshot = .init(
            reason: kind == .hang ? "heartbeat late" : "on request",
            heartbeat: kind == .hang ? .init(name: "db-poller", threadID: main.id, lateMs: 2500) : nil)
        report.threads = [
            main,
            .init(
                id: main.id + 1, name: "io", crashed: false, main: false, registers: nil, frames: [],
                unwindError: "no_answer"),
        ]
        report.threadsTotal = 2
        let data = Data(try Gzip.compress(try JSONRenderer().data(for: report)))
        return (id, try ReportDecoding.decode(gzipData: data), data)
    }
}
