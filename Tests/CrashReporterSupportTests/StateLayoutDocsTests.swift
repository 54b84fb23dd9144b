import Foundation
import TestSupport
import Testing

@testable import CrashReporterSupport

/// The state directory as a user reads it: docs/configuration.md's tree names every entry of
/// `StateLayout` and nothing else, and every path the layout hands out is one of its entries.
@Suite("State directory layout and its docs")
struct StateLayoutDocsTests {
    static let doc = "docs/configuration.md"
    static let marker = "<!-- state-directory tree -->"

    /// The entries the doc's tree draws: the first word of each line of the fenced block that
    /// follows the marker, below its `<state>/` line.
    static func documentedEntries() throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent(doc), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.popFirst(), line != marker {}
        try #require(lines.popFirst() == "```", "\(doc): no fenced block after \(marker)")
        try #require(lines.popFirst() == "<state>/", "\(doc): the tree does not start at <state>/")
        var entries: [String] = []
        while let line = lines.popFirst(), line != "```" {
            try #require(line.hasPrefix("  "), "\(doc): '\(line)' is not an entry below <state>/")
            entries.append(String(line.split(separator: " ")[0]))
        }
        return entries
    }

    @Test("docs/configuration.md's tree draws exactly StateLayout's entries, each once")
    func docsTreeMatchesTheLayout() throws {
        let documented = try Self.documentedEntries()
        let entries = StateLayout.entries
        #expect(Set(documented).count == documented.count, "the doc draws an entry twice: \(documented)")
        #expect(Set(entries).count == entries.count, "StateLayout lists an entry twice: \(entries)")
        for missing in entries where !documented.contains(missing) {
            Issue.record("StateLayout has \(missing), \(Self.doc)'s tree does not")
        }
        for extra in documented where !entries.contains(extra) {
            Issue.record("\(Self.doc)'s tree has \(extra), StateLayout does not")
        }
    }

    @Test("every path StateLayout hands out is an instance of exactly one of its entries")
    func pathsAreEntries() throws {
        let layout = StateLayout("/srv/state")
        let id = "0f3c2a9e-7b4d-4c1e-9a55-0d2e8b7c6a10"
        typealias Suffix = StateLayout.Suffix
        let paths = [
            layout.crashReportingConsent, layout.analyticsConsent, layout.deliveryLock, layout.deliveryCaps,
            FileSystem.temporaryPath(for: layout.deliveryCaps),
            StateLayout.report(id: id, in: layout.pending), layout.pending + "/" + id + Suffix.temporaryReport,
            layout.pending + "/" + id + Suffix.failedReport + "28", layout.deliveryState(id: id),
            layout.session(sid: id), StateLayout.report(id: id, in: layout.delivered),
            StateLayout.report(id: id, in: layout.rejected), layout.rejectionReason(id: id),
            StateLayout.rejectionReason(id: id, in: layout.rejected), StateLayout.report(id: id, in: layout.withheld),
            layout.runSlot(3), layout.lastRun, layout.settleLock, layout.installID,
            layout.analyticsQueue(StateLayout.Name.eventsQueue),
            layout.analyticsQueue(StateLayout.Name.telemetryDeckQueue),
            layout.analyticsQueue(StateLayout.Name.postHogQueue),
            layout.batchOutbox(StateLayout.Name.eventsQueue) + "/events-1795958405123-000001" + Suffix.sealedBatch,
            layout.batchOutboxLock(StateLayout.Name.postHogQueue),
            layout.rejectedBatches + "/posthog-1795958405123-000002a" + Suffix.sealedBatch,
            layout.rejectedBatches + "/posthog-1795958405123-000002a" + Suffix.rejectionReason,
        ]
        for path in paths {
            let below = try #require(
                path.hasPrefix(layout.root + "/") ? String(path.dropFirst(layout.root.count + 1)) : nil)
            let kinds = StateEntries.kinds(of: below)
            #expect(kinds.count == 1, "\(below) is an instance of \(kinds), not of exactly one entry")
        }
        // The folders are the first component of their entries.
        for folder in [
            layout.pending, layout.delivered, layout.rejected, layout.withheld, layout.runs, layout.analytics,
        ] {
            let name = String(folder.dropFirst(layout.root.count + 1))
            #expect(StateLayout.entries.contains { $0.hasPrefix(name + "/") }, "no entry below \(name)/")
        }
    }
}
