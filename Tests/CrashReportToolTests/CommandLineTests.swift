import CrashReportFormat
import Foundation
import TestSupport
import Testing

@testable import crashreport

@Suite("crashreport arguments")
struct ArgumentParsingTests {
    @Test func show() throws {
        #expect(try parseArguments(["show", "a.crash"]) == .show(ShowOptions(file: "a.crash", format: .text)))
        #expect(
            try parseArguments(["show", "--json", "a.crash"]) == .show(ShowOptions(file: "a.crash", format: .json)))
        #expect(
            try parseArguments(["show", "a.crash", "--json"]) == .show(ShowOptions(file: "a.crash", format: .json)))
        #expect(try parseArguments(["show", "--", "--json"]) == .show(ShowOptions(file: "--json", format: .text)))
    }

    @Test func helpAndVersion() throws {
        #expect(try parseArguments(["-h"]) == .help(nil))
        #expect(try parseArguments(["--help"]) == .help(nil))
        #expect(try parseArguments(["--version"]) == .version)
        #expect(try parseArguments(["show", "--help"]) == .help(.show))
        #expect(try parseArguments(["show", "-h", "--bogus"]) == .help(.show))
    }

    @Test func unknownOption() {
        #expect(throws: UsageError(message: "unknown option '--xml'", subcommand: .show)) {
            try parseArguments(["show", "--xml", "a.crash"])
        }
        #expect(throws: UsageError(message: "unknown option '-v'")) { try parseArguments(["-v"]) }
    }

    @Test func missingFile() {
        #expect(throws: UsageError(message: "missing ID or FILE", subcommand: .show)) { try parseArguments(["show"]) }
        #expect(throws: UsageError(message: "missing ID or FILE", subcommand: .show)) {
            try parseArguments(["show", "--json"])
        }
    }

    @Test func tooManyFiles() {
        #expect(throws: UsageError(message: "unexpected argument 'b.crash'", subcommand: .show)) {
            try parseArguments(["show", "a.crash", "b.crash"])
        }
    }

    @Test func subcommands() {
        #expect(throws: UsageError(message: "missing subcommand")) { try parseArguments([]) }
        #expect(throws: UsageError(message: "unknown subcommand 'shw'")) { try parseArguments(["shw"]) }
    }

    @Test func listStatsUploadExport() throws {
        #expect(try parseArguments(["list"]) == .list(ListOptions(directory: nil)))
        #expect(try parseArguments(["list", "--json", "/s"]) == .list(ListOptions(directory: "/s", json: true)))
        #expect(try parseArguments(["stats", "/s"]) == .stats(StatsOptions(directory: "/s")))
        #expect(
            try parseArguments(["upload", "--url", "http://127.0.0.1:1/api/reports", "/s"])
                == .upload(UploadOptions(directory: "/s", url: "http://127.0.0.1:1/api/reports", dsn: nil)))
        #expect(
            try parseArguments(["export", "--format", "sentry-envelope", "--dir", "/s", "abc"])
                == .export(ExportOptions(file: "abc", format: .sentryEnvelope, directory: "/s")))
        #expect(
            try parseArguments(["show", "--no-symbols", "--dir", "/s", "abc"])
                == .show(ShowOptions(file: "abc", format: .text, directory: "/s", symbolicate: false)))
        #expect(throws: UsageError(message: "missing --format", subcommand: .export)) {
            try parseArguments(["export", "a.crash"])
        }
        #expect(throws: UsageError(message: "unknown format 'xml' (json or sentry-envelope)", subcommand: .export)) {
            try parseArguments(["export", "--format", "xml", "a.crash"])
        }
        #expect(throws: UsageError(message: "missing value for --url", subcommand: .upload)) {
            try parseArguments(["upload", "--url"])
        }
        #expect(throws: UsageError(message: "give --url or --dsn, not both", subcommand: .upload)) {
            try parseArguments(["upload", "--url", "http://a", "--dsn", "http://k@b/1"])
        }
        #expect(throws: UsageError(message: "unexpected argument 'b'", subcommand: .list)) {
            try parseArguments(["list", "a", "b"])
        }
    }
}

@Suite("crashreport runs")
struct CommandRunTests {
    struct Run {
        var status: ExitCode
        var output = ""
        var errors = ""
    }

    static func run(_ arguments: [String]) -> Run {
        var output = ""
        var errors = ""
        let status = CrashReportTool.run(arguments, output: &output, errors: &errors)
        return Run(status: status, output: output, errors: errors)
    }

    static func temporaryFile(_ data: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).crash")
        try data.write(to: url)
        return url
    }

    @Test func helpHasItsSections() {
        let run = Self.run(["--help"])
        #expect(run.status == .success)
        for section in ["OVERVIEW:", "USAGE:", "OPTIONS:", "SUBCOMMANDS:"] {
            #expect(run.output.contains("\n\(section)") || run.output.hasPrefix(section), "\(section)")
        }
        #expect(run.errors.isEmpty)
        for subcommand in Subcommand.allCases {
            #expect(Self.run([subcommand.rawValue, "--help"]).output.contains("USAGE: \(subcommand.usage)"))
        }
    }

    @Test func version() {
        let run = Self.run(["--version"])
        #expect(run.status == .success)
        #expect(run.output == Help.version + "\n")
    }

    @Test func usageErrorExits64WithAHint() {
        let run = Self.run(["show"])
        #expect(run.status == .usage)
        #expect(run.status.rawValue == 64)
        #expect(run.output.isEmpty)
        let lines = run.errors.split(separator: "\n")
        #expect(lines.first == "Error: missing ID or FILE")
        #expect(lines.dropFirst().first == "Usage: \(Subcommand.show.usage)")
    }

    @Test func showPrintsTheLog() throws {
        let url = try Self.temporaryFile(try ReportFixture.gzip(ReportFixture.valid()))
        defer { try? FileManager.default.removeItem(at: url) }
        let text = Self.run(["show", url.path])
        #expect(text.status == .success)
        #expect(text.output.hasPrefix("Crash report \(ReportFixture.reportID)\n"))
        let json = Self.run(["show", "--json", url.path])
        #expect(json.status == .success)
        #expect(try ReportDecoding.decode(json: Data(json.output.utf8)).reportID == ReportFixture.reportID)
    }

    @Test(arguments: [
        ("empty", Data()),
        ("png", Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
        ("truncated", Data([0x1f, 0x8b, 0x08, 0x00])),
        ("json", Data("{\"schema_version\": 1}".utf8)),
    ])
    func badFilesExit1WithOneLine(name: String, data: Data) throws {
        let url = try Self.temporaryFile(data)
        defer { try? FileManager.default.removeItem(at: url) }
        let run = Self.run(["show", url.path])
        #expect(run.status == .failure)
        #expect(run.output.isEmpty)
        #expect(run.errors.hasPrefix("Error: \(url.path): "))
        #expect(run.errors.filter { $0 == "\n" }.count == 1)
    }

    @Test func otherVersionsAreRefused() throws {
        let v2 = ReportFixture.valid(setting: "/schema_version", to: 2)
        let url = try Self.temporaryFile(try ReportFixture.gzip(v2))
        defer { try? FileManager.default.removeItem(at: url) }
        let run = Self.run(["show", url.path])
        #expect(run.status == .failure)
        #expect(run.errors == "Error: \(url.path): unsupported schema version 2 (this reader knows version 1)\n")
    }

    @Test func missingFileNamesItOnce() {
        let run = Self.run(["show", "/nonexistent/x.crash"])
        #expect(run.status == .failure)
        #expect(run.errors == "Error: cannot read /nonexistent/x.crash: no such file or directory\n")
    }
}
