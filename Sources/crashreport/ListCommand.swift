import CrashReportDelivery
import CrashReportFormat
import Foundation

/// `crashreport list`: one line per report in pending/, delivered/ and rejected/.
enum ListCommand {
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

    static func run(_ options: ListOptions, environment: [String: String], output: inout some TextOutputStream) throws
        -> ExitCode
    {
        let rows = rows(in: try Locations.stateDirectory(options.directory, environment: environment))
        if options.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            output.write(String(decoding: try encoder.encode(rows), as: UTF8.self) + "\n")
            return .success
        }
        if rows.isEmpty {
            output.write("No reports.\n")
            return .success
        }
        output.write(pad("STATUS", 10) + pad("ID", 38) + pad("TIME", 26) + pad("SIGNAL", 9) + "TOP FRAME\n")
        for row in rows {
            let tail = row.problem.map { "damaged: \($0)" } ?? pad(row.time, 26) + pad(row.signal, 9) + row.topFrame
            output.write(pad(row.status, 10) + pad(row.id, 38) + tail + "\n")
        }
        return .success
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
