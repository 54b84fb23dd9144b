import ArgumentParser
import CrashReportFormat

/// `crashreport stats`: crash groups by signature, with counts and first and last seen.
struct StatsCommand: ToolSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Group the reports by crash signature.",
        discussion: """
            A signature is the signal and the top frames of the app's own code. Each group has its count, \
            first and last seen, and app versions; damaged files are counted apart.
            """)

    @Flag(help: "Print the groups as JSON.")
    var json = false

    @OptionGroup var stateDirectory: StateDirectoryArgument

    struct Group: Encodable {
        /// `crash`, `snapshot` or `hang`: one signature never spans two kinds.
        var kind: String
        var signature: String
        var count: Int
        var firstSeen: String
        var lastSeen: String
        var versions: [String]

        enum CodingKeys: String, CodingKey {
            case kind, signature, count, versions
            case firstSeen = "first_seen"
            case lastSeen = "last_seen"
        }
    }

    static func groups(in directory: String) -> (groups: [Group], damaged: Int) {
        var byKey: [CrashSignature: [CrashReport]] = [:]
        var damaged = 0
        for entry in Locations.allReports(in: directory) {
            guard let report = try? ReportDecoding.decode(file: entry.path) else {
                damaged += 1
                continue
            }
            byKey[CrashSignature(report: report), default: []].append(report)
        }
        let groups = byKey.map { signature, reports in
            let times = reports.map(\.timestamp).sorted()
            let versions = Set(reports.map { $0.app.version.isEmpty ? "?" : $0.app.version }).sorted()
            return Group(
                kind: reports.first?.kind.rawValue ?? "crash", signature: signature.description, count: reports.count,
                firstSeen: times.first ?? "",
                lastSeen: times.last ?? "", versions: versions)
        }
        return (groups.sorted { $0.count != $1.count ? $0.count > $1.count : $0.lastSeen > $1.lastSeen }, damaged)
    }

    /// `3 crashes in 2 groups`; with snapshots or hangs among them,
    /// `5 reports (3 crashes, 1 snapshot, 1 hang) in 4 groups`.
    static func headline(_ groups: [Group]) -> String {
        func count(_ number: Int, _ singular: String, _ plural: String) -> String {
            "\(number) \(number == 1 ? singular : plural)"
        }
        let total = groups.reduce(0) { $0 + $1.count }
        let byKind = Dictionary(grouping: groups, by: \.kind).mapValues { $0.reduce(0) { $0 + $1.count } }
        let crashes = byKind["crash"] ?? 0
        let inGroups = " in " + count(groups.count, "group", "groups")
        guard crashes != total else { return count(total, "crash", "crashes") + inGroups }
        var parts = [count(crashes, "crash", "crashes")]
        if let snapshots = byKind["snapshot"] { parts.append(count(snapshots, "snapshot", "snapshots")) }
        if let hangs = byKind["hang"] { parts.append(count(hangs, "hang", "hangs")) }
        return count(total, "report", "reports") + " (" + parts.joined(separator: ", ") + ")" + inGroups
    }

    func run(environment: [String: String], output: inout some TextOutputStream) throws {
        let (groups, damaged) = Self.groups(in: try stateDirectory.resolved(environment: environment))
        if json {
            output.write(try prettyJSON(groups))
            return
        }
        output.write(Self.headline(groups))
        output.write(damaged > 0 ? " (\(damaged) damaged file\(damaged == 1 ? "" : "s") left out)\n" : "\n")
        for group in groups {
            output.write("\n\(group.count)×  \(group.signature)\n")
            output.write(
                "    first \(group.firstSeen)  last \(group.lastSeen)  versions \(group.versions.joined(separator: ", "))\n"
            )
        }
    }
}
