import ArgumentParser
import CrashReportFormat
import CrashSymbolication

/// `crashreport stats`: crash groups by signature, newest activity first, each with its count
/// per app version.
struct StatsCommand: ToolSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Group the reports by crash signature.",
        discussion: """
            A signature is the signal, the top function names of the app's own code and a fatal error's \
            message (docs/grouping.md). Each group has its title, count, first and last seen, and its count \
            per app version; the group last seen most recently comes first, and in each group the version \
            last seen most recently. Damaged files are counted apart.
            """)

    @Flag(help: "Print the groups as JSON.")
    var json = false

    @OptionGroup var debug: DebugDirectoryArguments

    @OptionGroup var stateDirectory: StateDirectoryArgument

    struct Group: Encodable {
        /// `crash`, `snapshot` or `hang`: one signature never spans two kinds.
        var kind: String
        var title: String
        var signature: String
        var count: Int
        var firstSeen: String
        var lastSeen: String
        /// The versions, the one last seen most recently first.
        var versions: [String]
        /// Reports per version, in the order of `versions`.
        var versionCounts: [VersionCount] = []

        enum CodingKeys: String, CodingKey {
            case kind, title, signature, count, versions
            case firstSeen = "first_seen"
            case lastSeen = "last_seen"
            case versionCounts = "version_counts"
        }
    }

    struct VersionCount: Encodable, Equatable {
        var version: String
        var count: Int
        var lastSeen: String

        enum CodingKeys: String, CodingKey {
            case version, count
            case lastSeen = "last_seen"
        }
    }

    static func groups(in directory: String, symbolicator: Symbolicator = Symbolicator()) -> (
        groups: [Group], damaged: Int
    ) {
        var byKey: [CrashSignature: [CrashReport]] = [:]
        var damaged = 0
        for entry in Grouping.reports(in: directory, symbolicator: symbolicator) {
            guard case .success(let (report, signature)) = entry.decoded else {
                damaged += 1
                continue
            }
            byKey[signature, default: []].append(report)
        }
        let groups = byKey.map { signature, reports in
            let times = reports.map(\.timestamp).sorted()
            let byVersion = Dictionary(grouping: reports) { $0.app.version.isEmpty ? "?" : $0.app.version }
            let versionCounts = byVersion.map { version, reports in
                VersionCount(version: version, count: reports.count, lastSeen: reports.map(\.timestamp).max() ?? "")
            }.sorted { ($0.lastSeen, $0.version) > ($1.lastSeen, $1.version) }
            return Group(
                kind: signature.kind.rawValue, title: signature.title, signature: signature.description,
                count: reports.count, firstSeen: times.first ?? "", lastSeen: times.last ?? "",
                versions: versionCounts.map(\.version), versionCounts: versionCounts)
        }
        return (groups.sorted { ($0.lastSeen, $0.signature) > ($1.lastSeen, $1.signature) }, damaged)
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
        let (groups, damaged) = Self.groups(
            in: try stateDirectory.resolved(environment: environment),
            symbolicator: try debug.symbolicator(environment: environment))
        if json {
            output.write(try prettyJSON(groups))
            return
        }
        output.write(Self.headline(groups))
        output.write(damaged > 0 ? " (\(damaged) damaged file\(damaged == 1 ? "" : "s") left out)\n" : "\n")
        for group in groups {
            output.write("\n\(group.count)×  \(group.title)\n")
            output.write("    \(group.signature)\n")
            output.write("    first \(group.firstSeen)  last \(group.lastSeen)\n")
            let versions = group.versionCounts.map { "\($0.version) \($0.count)×" }
            output.write("    versions \(versions.joined(separator: ", "))\n")
        }
    }
}
