import CrashReport
import Foundation
import Synchronization

/// Crash reports as `DATA/reports/<id>.crash`, exactly the bytes the client sent, plus an
/// in-memory index of their summaries rebuilt from the files at start.
final class ReportStore: Sendable {
    let directory: String
    private let summaries = Mutex<[String: ReportSummary]>([:])

    enum StoreResult: Equatable {
        case stored(String)
        case duplicate(String)
    }

    init(dataDirectory: String) throws(SystemError) {
        directory = dataDirectory + "/reports"
        try DurableFile.makeDirectory(directory)
        DurableFile.removeTemporaryFiles(in: directory)
        var index: [String: ReportSummary] = [:]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where name.hasSuffix(".crash") && !name.hasPrefix(".") {
            do {
                let report = try ReportDecoding.decode(file: URL(fileURLWithPath: "\(directory)/\(name)"))
                let summary = ReportSummary(report)
                index[summary.id] = summary
            } catch {
                Log.warning("skipping \(error.message(file: name))")
            }
        }
        summaries.withLock { $0 = index }
    }

    /// Stores a decoded report's bytes under its id unless a report with that id is stored.
    func store(_ gzipData: Data, report: CrashReport) throws(SystemError) -> StoreResult {
        let summary = ReportSummary(report)
        switch try DurableFile.create(gzipData, name: "\(summary.id).crash", in: directory) {
        case .alreadyExists:
            return .duplicate(summary.id)
        case .created:
            summaries.withLock { $0[summary.id] = summary }
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
        guard ReportID.isValid(id), summary(id: id) != nil else { return nil }
        return try? ReportDecoding.decode(file: URL(fileURLWithPath: "\(directory)/\(id).crash"))
    }
}

/// Report and event ids: UUIDs in the 8-4-4-4-12 form.
enum ReportID {
    static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                if byte != UInt8(ascii: "-") { return false }
            } else if !isHex(byte) {
                return false
            }
        }
        return true
    }

    static func isHex(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) || (byte >= 0x41 && byte <= 0x46)
    }
}
