import ArgumentParser
import CrashReportDelivery
import CrashReportFormat
import CrashReporterSupport
import Foundation

/// `crashreport import`: rebuilds the reports crashes wrote to standard error from log text, and
/// stores each whole one in pending/.
struct ImportCommand: ToolSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Rebuild crash reports from a service's log into pending/.",
        discussion: """
            A crash writes its report to standard error as marked lines (docs/deployment.md). This reads \
            log text (docker logs, Docker json-file lines, CRI lines, kubectl logs, journalctl -o cat, with \
            other output between) from each FILE, or from standard input when there is none or FILE is -, \
            rebuilds each report, checks each line's checksum, the gzip stream and the schema, and stores \
            it in the state directory's pending/, where show, upload and watch take it. A report already \
            there (the same id) is not stored again.

            Each report gets one line: imported, already there, incomplete (lines missing) or damaged \
            (a checksum, the gzip stream or the schema); an incomplete or damaged report stores nothing.

            EXIT STATUS:
              0   every report found was imported or was already there (or none was found)
              1   a report was incomplete, damaged or not stored, or a file unreadable
              64  the command line is wrong
            """)

    @Option(
        name: .customLong("dir"),
        help: .defaulting(to: .stateDirectory, "The state directory to store the reports in", valueName: "dir"))
    var directory: String?

    @Argument(help: ArgumentHelp("Log files to read; - or none: standard input.", valueName: "file"))
    var files: [String] = []

    func validate() throws {
        try requireNonEmpty(directory, "--dir")
        for file in files { try requireNonEmpty(file, "FILE") }
    }

    func run(environment: [String: String], output: inout some TextOutputStream) throws {
        let state = try Locations.stateDirectory(directory, environment: environment, mustExist: false)
        let store = ReportStore(stateDirectory: state)
        var failures = 0
        var found = 0
        for source in files.isEmpty ? ["-"] : files {
            let text = try Self.read(source)
            for report in LoggedReports.find(in: text) {
                found += 1
                let line = Self.importing(report, into: store)
                if !line.stored { failures += 1 }
                output.write(line.text + "\n")
            }
        }
        if found == 0 { output.write("no crash report found\n") }
        if failures > 0 {
            throw ToolFailure(description: "\(failures) of \(found) reports not imported")
        }
    }

    /// What importing one report did, as its line of output.
    static func importing(_ report: LoggedReport, into store: ReportStore) -> (text: String, stored: Bool) {
        let id = report.id
        switch report.state {
        case .damaged(let reason):
            return ("damaged \(id): \(reason)", false)
        case .incomplete(let missing, let count):
            let list = missing.prefix(10).map(String.init).joined(separator: ", ")
            let more = missing.count > 10 ? ", …" : ""
            return ("incomplete \(id): \(missing.count) of \(count) lines missing (\(list)\(more))", false)
        case .whole(let gzip):
            do throws(ReportError) {
                let decoded = try ReportDecoding.decode(gzipData: gzip)
                guard decoded.reportID == id else {
                    return ("damaged \(id): the report inside has another id", false)
                }
            } catch {
                return ("damaged \(id): \(error.description)", false)
            }
            let folders = [store.pending, store.delivered, store.rejected, store.withheld]
            if folders.contains(where: { FileSystem.exists(StateLayout.report(id: id, in: $0)) }) {
                return ("already there \(id)", true)
            }
            let path = StateLayout.report(id: id, in: store.pending)
            do throws(FileError) {
                try FileSystem.createDirectory(store.pending)
                switch try FileSystem.createExclusively(gzip, at: path) {
                case .created: return ("imported \(id): \(path)", true)
                case .alreadyExisted: return ("already there \(id)", true)
                }
            } catch {
                return ("not stored \(id): \(error)", false)
            }
        }
    }

    /// The bytes of `source`: a file, or standard input for `-`.
    static func read(_ source: String) throws(ToolFailure) -> [UInt8] {
        if source == "-" {
            return [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        }
        guard let data = FileManager.default.contents(atPath: source) else {
            throw ToolFailure(description: "cannot read \(source)")
        }
        return [UInt8](data)
    }
}
