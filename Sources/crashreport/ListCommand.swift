import ArgumentParser
import CrashReportDelivery
import CrashReportFormat
import Foundation

/// `crashreport list`: one line per report in pending/, delivered/ and rejected/.
struct ListCommand: ToolSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the reports of a state directory: status, id, time, signal, top frame.")

    @Flag(help: "Print the list as JSON.")
    var json = false

    @OptionGroup var stateDirectory: StateDirectoryArgument

    struct Row: Encodable {
        var status: String
        var id: String
        var time: String
        var signal: String
        var topFrame: String
        var problem: String?

        enum CodingKeys: String, CodingKey {
            case status, id, time, signal, problem
            case topFrame = "top_frame"
        }
    }

    static func rows(in directory: String) -> [Row] {
        Locations.allReports(in: directory).map { entry in
            let id = ReportStore.id(of: entry.path)
            do {
                let report = try ReportDecoding.decode(file: entry.path)
                return Row(
                    status: entry.status, id: id, time: report.timestamp, signal: report.crash.signal.name,
                    topFrame: CrashSignature(report: report, depth: 1).frames.first ?? "???")
            } catch {
                return Row(
                    status: entry.status, id: id, time: "", signal: "", topFrame: "", problem: String(describing: error)
                )
            }
        }
    }

    func run(environment: [String: String], output: inout some TextOutputStream) throws {
        let rows = Self.rows(in: try stateDirectory.resolved(environment: environment))
        if json {
            output.write(try prettyJSON(rows))
            return
        }
        if rows.isEmpty {
            output.write("No reports.\n")
            return
        }
        output.write(Self.pad("STATUS", 10) + Self.pad("ID", 38) + Self.pad("TIME", 26) + Self.pad("SIGNAL", 9))
        output.write("TOP FRAME\n")
        for row in rows {
            let tail =
                row.problem.map { "damaged: \($0)" }
                ?? Self.pad(row.time, 26) + Self.pad(row.signal, 9) + row.topFrame
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
