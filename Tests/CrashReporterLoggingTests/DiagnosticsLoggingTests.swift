import CrashReporter
import CrashReporterLogging
import Foundation
import Logging
import TestSupport
import Testing

/// The package's own diagnostics reach the service's swift-log handler, in a child process
/// (the crash reporter starts once per process).
@Suite("Diagnostics through swift-log")
struct DiagnosticsLoggingTests {
    @Test("an unwritable state directory, a handler already installed and a report not delivered are logged")
    func diagnosticsAreLogged() async throws {
        let state = TempDirectory()
        let id = "0f1e2d3c-4b5a-4968-8776-655443322110"
        try ReportFixture.plantPending(id: id, in: state.path)
        let url = "http://127.0.0.1:\(closedPort())/api/reports"
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            [path = state.path as String, url = url as String] in
            // A handler of the service's own, there before the reporter's.
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in }
            sigaction(SIGBUS, &action, nil)
            // Diagnostics from before the bootstrap are kept for it. (With the crash on stderr, the
            // default, an unusable directory would still start; without it, start() refuses.)
            _ = try? CrashReporter.start(
                Options(appName: "diag", stateDirectory: "/proc/no-such-directory", crashOutput: .off))
            try CrashReporter.start(Options(appName: "diag", stateDirectory: path, uploadURL: url))
            LoggingSystem.bootstrapWithCrashBreadcrumbs(StreamLogHandler.standardError)
            guard let summary = CrashReporter.waitForDelivery(timeout: .seconds(20)), summary.retrying.count == 1 else {
                exit(2)
            }
            exit(0)
        }
        let log = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(log.contains("swift-crash-reporter"), "\(log)")
        #expect(log.contains("crash reports cannot be kept: cannot create /proc/no-such-directory"), "\(log)")
        // Ours, and under a sanitizer its own handlers for other signals too.
        let chained = log.split(separator: "\n").first { $0.contains("found a handler already installed for") }
        #expect(chained?.contains("SIGBUS") == true, "\(log)")
        #expect(log.contains("could not deliver crash report \(id) (network error:"), "\(log)")
    }
}
