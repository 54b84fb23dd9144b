import ArgumentParser
import CrashReportDelivery
import CrashReportFormat
import Foundation
import TestSupport
import Testing

@testable import crashreport

@Suite("crashreport arguments")
struct ArgumentParsingTests {
    func parse<Command: ParsableCommand>(_ arguments: [String], as type: Command.Type) throws -> Command {
        try #require(try CrashReportTool.parseAsRoot(arguments) as? Command)
    }

    /// The first line a usage error prints; the status must be 64.
    func usageError(_ arguments: [String]) -> String {
        let run = CommandRunTests.run(arguments)
        #expect(run.status == 64, "\(arguments) exited \(run.status)")
        #expect(run.output.isEmpty)
        return String(run.errors.split(separator: "\n").first ?? "")
    }

    @Test func show() throws {
        let plain = try parse(["show", "a.crash"], as: ShowCommand.self)
        #expect(plain.target.report == "a.crash")
        #expect(!plain.json && !plain.noSymbols && plain.target.directory == nil)
        #expect(try parse(["show", "--json", "a.crash"], as: ShowCommand.self).json)
        #expect(try parse(["show", "a.crash", "--json"], as: ShowCommand.self).json)
        #expect(try parse(["show", "--", "--json"], as: ShowCommand.self).target.report == "--json")
        let all = try parse(["show", "--no-symbols", "--dir=/s", "abc"], as: ShowCommand.self)
        #expect(all.noSymbols && all.target.directory == "/s" && all.target.report == "abc")
    }

    @Test func listStatsUploadExport() throws {
        #expect(try parse(["list"], as: ListCommand.self).stateDirectory.directory == nil)
        let list = try parse(["list", "--json", "/s"], as: ListCommand.self)
        #expect(list.json && list.stateDirectory.directory == "/s")
        #expect(try parse(["stats", "/s"], as: StatsCommand.self).stateDirectory.directory == "/s")
        let upload = try parse(["upload", "--url", "http://127.0.0.1:1/api/reports", "/s"], as: UploadCommand.self)
        #expect(
            upload.delivery.url == "http://127.0.0.1:1/api/reports" && upload.delivery.dsn == nil
                && upload.stateDirectory.directory == "/s")
        let export = try parse(["export", "--format", "sentry-envelope", "--dir", "/s", "abc"], as: ExportCommand.self)
        #expect(export.format == .sentryEnvelope && export.target.directory == "/s" && export.target.report == "abc")
    }

    @Test func parserErrorsAreUsageErrors() {
        #expect(usageError([]) == "Error: missing subcommand")
        #expect(usageError(["shw"]) == "Error: Unexpected argument 'shw'")
        #expect(usageError(["-v"]) == "Error: Unknown option '-v'")
        #expect(usageError(["show", "--jsn", "a.crash"]) == "Error: Unknown option '--jsn'. Did you mean '--json'?")
        #expect(usageError(["show"]) == "Error: Missing expected argument '<id-or-file>'")
        #expect(usageError(["show", "a.crash", "b.crash"]) == "Error: Unexpected argument 'b.crash'")
        #expect(usageError(["list", "a", "b"]) == "Error: Unexpected argument 'b'")
        #expect(usageError(["export", "a.crash"]) == "Error: Missing expected argument '--format <format>'")
        #expect(
            usageError(["export", "--format", "xml", "a.crash"])
                == "Error: The value 'xml' is invalid for '--format <format>'. "
                + "Please provide one of 'json' and 'sentry-envelope'.")
        #expect(usageError(["upload", "--url"]) == "Error: Missing value for '--url <url>'")
    }

    /// What `validate()` refuses, with its words.
    @Test func validation() {
        #expect(
            usageError(["upload", "--url", "http://a", "--dsn", "http://k@b/1"])
                == "Error: give one of --url, --dsn and --otlp-endpoint")
        #expect(
            usageError(["upload", "--url", "http://a", "--otlp-endpoint", "http://127.0.0.1:4318/v1/logs"])
                == "Error: give one of --url, --dsn and --otlp-endpoint")
        #expect(usageError(["show", ""]) == "Error: ID or FILE is empty")
        #expect(usageError(["show", "--dir", "", "abc"]) == "Error: --dir is empty")
        #expect(usageError(["export", "--format", "json", ""]) == "Error: ID or FILE is empty")
        #expect(usageError(["list", ""]) == "Error: DIR is empty")
        #expect(usageError(["stats", ""]) == "Error: DIR is empty")
        #expect(usageError(["upload", ""]) == "Error: DIR is empty")
    }

    @Test func usageErrorsShowTheSubcommandsUsage() {
        let run = CommandRunTests.run(["show"])
        let lines = run.errors.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                "Usage: crashreport show [--json] [--no-symbols] [--thunks] [--debug-dir <dir> ...] [--dir <dir>] <id-or-file>"
            ))
        #expect(lines.last == "  See 'crashreport show --help' for more information.")
    }
}

@Suite("crashreport runs")
struct CommandRunTests {
    struct Run {
        var status: Int32
        var output = ""
        var errors = ""
    }

    static func run(_ arguments: [String]) -> Run {
        var output = ""
        var errors = ""
        let status = CrashReportTool.run(
            arguments, environment: ProcessInfo.processInfo.environment, output: &output, errors: &errors)
        return Run(status: status, output: output, errors: errors)
    }

    static func temporaryFile(_ data: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).crash")
        try data.write(to: url)
        return url
    }

    @Test func helpHasItsSections() {
        let run = Self.run(["--help"])
        #expect(run.status == 0)
        for section in ["OVERVIEW:", "USAGE:", "OPTIONS:", "SUBCOMMANDS:", "ENVIRONMENT:", "EXIT STATUS:"] {
            #expect(run.output.contains("\n\(section)") || run.output.hasPrefix(section), "\(section)")
        }
        #expect(run.errors.isEmpty)
        for subcommand in CrashReportTool.configuration.subcommands {
            let name = subcommand.configuration.commandName ?? ""
            for arguments in [[name, "--help"], [name, "-h"], ["help", name]] {
                let help = Self.run(arguments)
                #expect(help.status == 0)
                #expect(help.output.contains("USAGE: crashreport \(name)"), "\(arguments)")
            }
        }
    }

    @Test func version() {
        let run = Self.run(["--version"])
        #expect(run.status == 0)
        #expect(run.output == CrashReportVersion.current + "\n")
    }

    @Test func showPrintsTheLog() throws {
        let url = try Self.temporaryFile(try ReportFixture.gzip(ReportFixture.valid()))
        defer { try? FileManager.default.removeItem(at: url) }
        let text = Self.run(["show", url.path])
        #expect(text.status == 0)
        #expect(text.output.hasPrefix("Crash report \(ReportFixture.reportID)\n"))
        let json = Self.run(["show", "--json", url.path])
        #expect(json.status == 0)
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
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(run.errors.hasPrefix("Error: \(url.path): "))
        #expect(run.errors.filter { $0 == "\n" }.count == 1)
    }

    @Test func otherVersionsAreRefused() throws {
        let v5 = ReportFixture.validV2(setting: "/schema_version", to: 5)
        let url = try Self.temporaryFile(try ReportFixture.gzip(v5))
        defer { try? FileManager.default.removeItem(at: url) }
        let run = Self.run(["show", url.path])
        #expect(run.status == 1)
        #expect(run.errors == "Error: \(url.path): unsupported schema version 5 (this reader knows versions 1 to 4)\n")
    }

    @Test func missingFileNamesItOnce() {
        let run = Self.run(["show", "/nonexistent/x.crash"])
        #expect(run.status == 1)
        #expect(run.errors == "Error: cannot read /nonexistent/x.crash: no such file or directory\n")
    }
}
