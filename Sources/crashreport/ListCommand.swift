import ArgumentParser
import CrashReportDelivery
import CrashReportFormat
import CrashSymbolication
import Foundation

/// `crashreport list`: one line per report in pending/, delivered/ and rejected/.
struct ListCommand: ToolSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the reports of a state directory: status, id, time, signal or kind, title.")

    @Flag(help: "Print the list as JSON.")
    var json = false

    @OptionGroup var debug: DebugDirectoryArguments

    @OptionGroup var stateDirectory: StateDirectoryArgument

    struct Row: Encodable {
        var status: String
        var id: String
        var time: String
        /// `crash`, `snapshot` or `hang`; empty for a damaged file.
        var kind: String
        /// The signal's name, or for a snapshot or a hang its kind.
        var signal: String
        /// The innermost function of the app (else `image+0xoffset`), or for a snapshot its
        /// reason and for a hang the late heartbeat's name (what its signature names).
        var topFrame: String
        /// The group's title, as `stats` and the collector show it (`CrashSignature.title`).
        var title: String = ""
        /// The group (`CrashSignature`'s one line).
        var signature: String = ""
        var problem: String?

        enum CodingKeys: String, CodingKey {
            case status, id, time, kind, signal, title, signature, problem
            case topFrame = "top_frame"
        }
    }

    static func rows(in directory: String, symbolicator: Symbolicator = Symbolicator()) -> [Row] {
        Grouping.reports(in: directory, symbolicator: symbolicator).map { entry in
            let id = ReportStore.id(of: entry.path)
            switch entry.decoded {
            case .success(let (report, signature)):
                return Row(
                    status: entry.status, id: id, time: report.timestamp, kind: report.kind.rawValue,
                    signal: signature.signal, topFrame: signature.frames.first ?? (report.crash == nil ? "" : "???"),
                    title: signature.title, signature: signature.description)
            case .failure(let error):
                return Row(
                    status: entry.status, id: id, time: "", kind: "", signal: "", topFrame: "",
                    problem: String(describing: error)
                )
            }
        }
    }

    func run(environment: [String: String], output: inout some TextOutputStream) throws {
        let rows = Self.rows(
            in: try stateDirectory.resolved(environment: environment),
            symbolicator: try debug.symbolicator(environment: environment))
        if json {
            output.write(try prettyJSON(rows))
            return
        }
        if rows.isEmpty {
            output.write("No reports.\n")
            return
        }
        output.write(Self.pad("STATUS", 10) + Self.pad("ID", 38) + Self.pad("TIME", 26) + Self.pad("SIGNAL", 9))
        output.write("TITLE\n")
        for row in rows {
            let tail =
                row.problem.map { "damaged: \($0)" }
                ?? Self.pad(row.time, 26) + Self.pad(row.signal, 9) + row.title
            output.write(Self.pad(row.status, 10) + Self.pad(row.id, 38) + tail + "\n")
        }
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}

/// Pretty-printed JSON with sorted keys and a final newline, as `--json` prints.
func prettyJSON(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
}
