import Foundation
import Testing

@testable import CrashReporterSupport

/// The docs' tables of settings state the defaults `ConfigurationDefaults` holds: each row's
/// default cell begins with (or, for the retry delay, names) the value the code uses.
@Suite("Configuration defaults and their docs")
struct ConfigurationDefaultsDocsTests {
    typealias Defaults = ConfigurationDefaults

    /// Each table row of `doc` by the setting it names (the first backticked word of its first
    /// cell, or of its second when the first is `—`), with its last cell.
    static func defaultCells(_ doc: String) throws -> [String: String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent(doc), encoding: .utf8)
        var cells: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| ") {
            let row = line.dropFirst(2).dropLast(2).components(separatedBy: " | ")
            guard row.count >= 3, let last = row.last else { continue }
            let naming = row[0] == "—" ? row[1] : row[0]
            let words = naming.split(separator: "`", omittingEmptySubsequences: false)
            guard words.count >= 3 else { continue }
            cells[String(words[1])] = last
        }
        return cells
    }

    /// `duration` as the docs write it: `100 ms`, `10 s`, `3600 s`.
    static func written(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return attoseconds == 0 ? "\(seconds) s" : "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
    }

    static func expect(_ cells: [String: String], _ key: String, startsWith prefix: String, in doc: String) {
        guard let cell = cells[key] else {
            Issue.record("\(doc) has no row for \(key)")
            return
        }
        #expect(cell.hasPrefix(prefix), "\(doc), \(key): '\(cell)' does not begin with '\(prefix)'")
    }

    @Test("docs/configuration.md states ConfigurationDefaults' values")
    func configurationPage() throws {
        let doc = "docs/configuration.md"
        let cells = try Self.defaultCells(doc)
        let expected: [(String, String)] = [
            ("environment", "`\(Defaults.environmentName)`"),
            ("breadcrumbCapacity", "\(Defaults.breadcrumbCapacity) "),
            (
                "retryBaseDelay",
                "\(Self.written(Defaults.retryBaseDelay)), doubled per attempt up to "
                    + "\(Defaults.retryMaximumDelay.components.seconds / 3600) h, "
                    + "±\(Int(Defaults.retryJitter * 100)) % jitter"
            ),
            ("keepDelivered", "\(Defaults.keepDelivered) "),
            ("maxThreads", "\(Defaults.maxThreads) "),
            ("maxFramesPerThread", "\(Defaults.maxFramesPerThread) "),
            ("threadCaptureTimeout", "\(Self.written(Defaults.threadCaptureTimeout)) "),
            ("hangTimeout", "\(Self.written(Defaults.hangTimeout)):"),
            ("capCount", "\(Defaults.capCount) "),
            ("capWindow", Self.written(Defaults.capWindow)),
            ("maxPendingReports", "\(Defaults.maxPendingReports) "),
            ("maxPendingBytes", "\(Defaults.maxPendingBytes) bytes (\(Defaults.maxPendingBytes >> 20) MiB)"),
            ("retention", "\(Int(Defaults.retention.inDays)) days"),
            ("CRASH_REPORTER_UPLOAD_TIMEOUT_SECONDS", "\(Self.written(Defaults.uploadTimeout)) "),
        ]
        for (key, prefix) in expected { Self.expect(cells, key, startsWith: prefix, in: doc) }
        let upload = cells["CRASH_REPORTER_UPLOAD_TIMEOUT_SECONDS"] ?? ""
        #expect(upload.contains("at least \(Defaults.minimumUploadTimeout.inSeconds) s"), "\(doc): \(upload)")
    }

    @Test("docs/crash-loops.md states ConfigurationDefaults' cap and retention values")
    func crashLoopsPage() throws {
        let doc = "docs/crash-loops.md"
        let cells = try Self.defaultCells(doc)
        let expected: [(String, String)] = [
            ("capCount", "\(Defaults.capCount) "),
            ("capWindow", Self.written(Defaults.capWindow)),
            ("maxPendingReports", "\(Defaults.maxPendingReports) "),
            ("maxPendingBytes", "\(Defaults.maxPendingBytes) bytes (\(Defaults.maxPendingBytes >> 20) MiB)"),
            ("retention", "\(Int(Defaults.retention.inDays)) days"),
        ]
        for (key, prefix) in expected { Self.expect(cells, key, startsWith: prefix, in: doc) }
    }
}
