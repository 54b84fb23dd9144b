import CrashReportFormat

/// Reports sharing a signature (docs/grouping.md).
struct CrashGroup: Sendable, Equatable {
    var signature: String
    /// Newest crash first.
    var reports: [ReportSummary]

    var count: Int { reports.count }
    /// `crash`, `snapshot` or `hang`: one signature never spans two kinds.
    var kind: String { reports.first?.kind ?? CrashReport.Kind.crash.rawValue }
    /// The readable title of the newest report (every report of a group has the same).
    var title: String { reports.first?.title ?? signature }
    var firstSeen: ReportSummary? { reports.min { $0.timeMs < $1.timeMs } }
    var lastSeen: ReportSummary? { reports.max { $0.timeMs < $1.timeMs } }
    /// The app versions that crashed this way, sorted.
    var versions: [String] { Set(reports.map(\.version)).sorted() }
    var apps: [String] { Set(reports.map(\.app)).sorted() }

    /// The group's address in `/groups/<key>`: 16 hex digits of the signature's FNV-1a hash,
    /// the same for the same signature in every run.
    var key: String { Self.key(of: signature) }

    static func key(of signature: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in signature.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Reports per version, the version seen most recently first.
    var versionCounts: [(version: String, count: Int)] {
        Dictionary(grouping: reports, by: \.version)
            .map { (version: $0.key, count: $0.value.count, last: $0.value.map(\.timeMs).max() ?? 0) }
            .sorted { ($0.last, $0.version) > ($1.last, $1.version) }
            .map { ($0.version, $0.count) }
    }

    /// Groups by signature, the one with the newest report first.
    static func groups(of summaries: [ReportSummary]) -> [CrashGroup] {
        Dictionary(grouping: summaries, by: \.signature)
            .map { CrashGroup(signature: $0.key, reports: $0.value.sorted { ($0.timeMs, $0.id) > ($1.timeMs, $1.id) }) }
            .sorted { ($0.lastSeen?.timeMs ?? 0, $0.signature) > ($1.lastSeen?.timeMs ?? 0, $1.signature) }
    }
}
