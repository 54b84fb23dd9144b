import CrashReportFormat
import Foundation

/// `crashreport stats`: crash groups by signature, with counts and first and last seen.
enum StatsCommand {
    struct Group: Encodable {
        var signature: String
        var count: Int
        var firstSeen: String
        var lastSeen: String
        var versions: [String]

        enum CodingKeys: String, CodingKey {
            case signature, count, versions
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
                signature: signature.description, count: reports.count, firstSeen: times.first ?? "",
                lastSeen: times.last ?? "", versions: versions)
        }
        return (groups.sorted { $0.count != $1.count ? $0.count > $1.count : $0.lastSeen > $1.lastSeen }, damaged)
    }

    static func run(_ options: StatsOptions, environment: [String: String], output: inout some TextOutputStream) throws
        -> ExitCode
    {
        let (groups, damaged) = groups(in: try Locations.stateDirectory(options.directory, environment: environment))
        if options.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            output.write(String(decoding: try encoder.encode(groups), as: UTF8.self) + "\n")
            return .success
        }
        let total = groups.reduce(0) { $0 + $1.count }
        output.write("\(total) crash\(total == 1 ? "" : "es") in \(groups.count) group\(groups.count == 1 ? "" : "s")")
        output.write(damaged > 0 ? " (\(damaged) damaged file\(damaged == 1 ? "" : "s") left out)\n" : "\n")
        for group in groups {
            output.write("\n\(group.count)×  \(group.signature)\n")
            output.write(
                "    first \(group.firstSeen)  last \(group.lastSeen)  versions \(group.versions.joined(separator: ", "))\n"
            )
        }
        return .success
    }
}
