import CrashReportFormat
import CrashReporterSupport
import CrashSymbolication
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Crash reports as `DATA/reports/<id>.crash`, exactly the bytes the client sent, plus an
/// in-memory index of their summaries rebuilt from the files at start. (Not `CrashReport`'s
/// `ReportStore`, which is the client's pending/delivered/rejected folders.)
final class CollectorReportStore: Sendable {
    let directory: String
    /// Names the frames of a report's signature (docs/grouping.md), once per distinct stack.
    let signatures: SignatureCache
    private let summaries = Lock<[String: ReportSummary]>([:])

    enum StoreResult: Equatable {
        case stored(String)
        case duplicate(String)
    }

    /// Summaries of stored reports, one JSON line each, appended as reports are stored: decoding
    /// and validating every report again at each start costs about 10 ms a report. Only a
    /// cache: a report missing from it is decoded, a line without its report is ignored.
    let indexPath: String
    private let layout: CollectorDataLayout
    private let indexFD: Int32

    /// Summaries cached by an older grouping rule (`ReportSummary.currentRule`) are made again
    /// from their reports: existing reports are regrouped when the collector starts.
    init(dataDirectory: String, symbolicator: Symbolicator = Symbolicator()) throws(FileError) {
        signatures = SignatureCache(symbolicator: symbolicator)
        layout = CollectorDataLayout(dataDirectory)
        directory = layout.reports
        indexPath = layout.reportsIndex
        try DataDirectory.create(directory)
        DataDirectory.removeStaleTemporaryFiles(in: directory)
        var cached: [String: ReportSummary] = [:]
        let indexBytes = DataDirectory.read(indexPath)
        if let indexBytes {
            for line in indexBytes.split(separator: 0x0a) {
                if let json = try? JSON.parse(line), let summary = ReportSummary(json: json) {
                    cached[summary.id] = summary
                }
            }
        }
        indexFD = try FileSystem.openForAppending(indexPath, mode: DataDirectory.fileMode)
        var index: [String: ReportSummary] = [:]
        let names = (try? FileSystem.contentsOfDirectory(directory)) ?? []
        var missing: [ReportSummary] = []
        for name in names {
            guard let id = CollectorDataLayout.reportID(fileName: name) else { continue }
            if let summary = cached[id], summary.rule == ReportSummary.currentRule {
                index[id] = summary
                continue
            }
            do {
                let report = try ReportDecoding.decode(file: "\(directory)/\(name)")
                let summary = ReportSummary(report, signatures: signatures)
                index[summary.id] = summary
                missing.append(summary)
            } catch {
                Log.warning("skipping \(error.message(file: name))")
            }
        }
        // A torn last line is ended first, so that the lines appended after it stay whole.
        if let last = indexBytes?.last, last != 0x0a {
            try? FileSystem.append([0x0a], to: indexFD, path: indexPath, durable: true)
        }
        let regrouped = missing.filter { cached[$0.id] != nil }.count
        if regrouped > 0 { Log.info("regrouped \(regrouped) reports by the current grouping rule") }
        for summary in missing { appendToIndex(summary) }
        summaries.withLock { $0 = index }
    }

    deinit {
        close(indexFD)
    }

    private func appendToIndex(_ summary: ReportSummary) {
        let line = JSON.serialize(summary.json) + [0x0a]
        do {
            try FileSystem.append(line, to: indexFD, path: indexPath)
        } catch {
            Log.warning("cannot update the report index: \(error)")
        }
    }

    /// Stores a decoded report's bytes under its id unless a report with that id is stored.
    func store(_ gzipData: Data, report: CrashReport) throws(FileError) -> StoreResult {
        let summary = ReportSummary(report, signatures: signatures)
        let path = layout.report(id: summary.id)
        switch try FileSystem.createExclusively(gzipData, at: path, mode: DataDirectory.fileMode) {
        case .alreadyExisted:
            return .duplicate(summary.id)
        case .created:
            summaries.withLock {
                appendToIndex(summary)  // under the lock: one writer of the index at a time
                $0[summary.id] = summary
            }
            return .stored(summary.id)
        }
    }

    /// Every summary, newest crash first.
    func all() -> [ReportSummary] {
        summaries.withLock { Array($0.values) }.sorted { ($0.timeMs, $0.id) > ($1.timeMs, $1.id) }
    }

    func summary(id: String) -> ReportSummary? {
        summaries.withLock { $0[id.lowercased()] }
    }

    /// Reads and decodes one stored report; nil when there is none with this id.
    func report(id: String) -> CrashReport? {
        let id = id.lowercased()
        guard UUIDBytes.isCanonical(id), summary(id: id) != nil else { return nil }
        return try? ReportDecoding.decode(file: layout.report(id: id))
    }
}
