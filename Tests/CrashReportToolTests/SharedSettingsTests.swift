import CrashReporter
import Foundation
import Testing

@testable import crashreport

/// The service (`CrashReporter.start`) and `crashreport upload` read the delivery variables
/// with one reader: the same bad value is refused by both, with the same words.
@Suite("Shared settings")
struct SharedSettingsTests {
    @Test(
        "the same invalid value is refused identically by CrashReporter.start and crashreport upload",
        arguments: [
            ("CRASH_REPORTER_RETRY_BASE_SECONDS", "-1"),
            ("CRASH_REPORTER_UPLOAD_TIMEOUT_SECONDS", "soon"),
            ("CRASH_REPORTER_URL", "ftp://127.0.0.1/api/reports"),
            ("SENTRY_DSN", "https://sentry.example/7"),
            ("CRASH_REPORTER_DISABLED", "perhaps"),
            ("CRASH_REPORTER_CAP_COUNT", "-1"),
            ("CRASH_REPORTER_CAP_WINDOW_SECONDS", "an hour"),
            ("CRASH_REPORTER_MAX_PENDING_REPORTS", "1e3"),
            ("CRASH_REPORTER_MAX_PENDING_BYTES", "50M"),
            ("CRASH_REPORTER_KEEP_DAYS", "-3"),
        ])
    func sameRefusal(name: String, value: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shared-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var environment = ["CRASH_REPORTER_URL": "http://127.0.0.1:1/api/reports", "HOME": directory]
        environment[name] = value

        // The configuration is read before anything is installed: a refusal leaves the process as it was.
        var refusal: String?
        do {
            try CrashReporter.start(Options(appName: "shared", stateDirectory: directory), environment: environment)
            Issue.record("the service started with \(name)=\(value)")
        } catch let error as CrashReporterError {
            if case .invalidOption(let text) = error { refusal = text }
        }
        let message = try #require(refusal, "the service did not refuse \(name)=\(value) as an invalid option")
        #expect(message.hasPrefix("\(name) must "))
        #expect(message.contains(value))

        var output = ""
        var errors = ""
        let status = CrashReportTool.run(
            ["upload", directory], environment: environment, output: &output, errors: &errors)
        #expect(status == 1)
        #expect(errors == "Error: \(message)\n")
        #expect(output.isEmpty)
    }
}
