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
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"),
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318"),
            ("OTEL_RESOURCE_ATTRIBUTES", "novalue"),
        ])
    func sameRefusal(name: String, value: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shared-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // OpenTelemetry's variables are read only when OTLP is where crashes go.
        var environment =
            name.hasPrefix("OTEL_")
            ? ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "HOME": directory]
            : ["CRASH_REPORTER_URL": "http://127.0.0.1:1/api/reports", "HOME": directory]
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

    @Test("Options.otlp is checked by the same rules, named as the option")
    func otlpOption() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shared-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (otlp, rule) in [
            (OTLPOptions(logsEndpoint: "ftp://127.0.0.1/v1/logs"), "Options.otlp must be an http or https URL"),
            (
                OTLPOptions(logsEndpoint: "http://127.0.0.1:1/v1/logs", headers: ["bad name": "x"]),
                "Options.otlp must name headers"
            ),
        ] {
            do {
                try CrashReporter.start(
                    Options(appName: "shared", stateDirectory: directory, otlp: otlp), environment: ["HOME": directory])
                Issue.record("the service started with \(otlp)")
            } catch let error as CrashReporterError {
                guard case .invalidOption(let text) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(text.hasPrefix(rule), "\(text)")
            }
        }
    }
}
