import CrashReportDelivery
import Foundation
import Testing

@testable import CrashReporter

@Suite("State directory and crash-reporting choice")
struct StateDirectoryTests {
    @Test("explicit option, then CRASH_REPORTER_DIR, then systemd, XDG and ~/.local/state with the app's name")
    func resolutionOrder() {
        let env = [
            "CRASH_REPORTER_DIR": "/env/dir", "STATE_DIRECTORY": "/var/lib/svc:/var/lib/other",
            "XDG_STATE_HOME": "/xdg", "HOME": "/home/u",
        ]
        #expect(StateDirectory.resolve(appName: "svc", explicit: "/opt/x", environment: env) == "/opt/x")
        #expect(StateDirectory.resolve(appName: "svc", environment: env) == "/env/dir")
        var e = env
        e["CRASH_REPORTER_DIR"] = nil
        #expect(StateDirectory.resolve(appName: "svc", environment: e) == "/var/lib/svc/svc")
        e["STATE_DIRECTORY"] = nil
        #expect(StateDirectory.resolve(appName: "svc", environment: e) == "/xdg/svc")
        e["XDG_STATE_HOME"] = "relative/ignored"
        #expect(StateDirectory.resolve(appName: "svc", environment: e) == "/home/u/.local/state/svc")
        #expect(StateDirectory.resolve(appName: "../a/b", environment: e) == "/home/u/.local/state/.._a_b")
    }

    @Test("the choice is stored in its own file; opting out deletes pending reports")
    func consentFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("consent-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(CrashReportingConsent.storedChoice(stateDirectory: dir) == nil)
        #expect(CrashReportingConsent.isEnabled(stateDirectory: dir, environment: [:]))
        #expect(!CrashReportingConsent.isEnabled(stateDirectory: dir, environment: ["CRASH_REPORTER_DISABLED": "1"]))

        try FileManager.default.createDirectory(atPath: dir + "/pending", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: dir + "/pending/a.crash", contents: Data([1])))
        #expect(FileManager.default.createFile(atPath: dir + "/pending/b.crash.tmp", contents: Data([1])))
        #expect(FileManager.default.createFile(atPath: dir + "/pending/a.delivery", contents: Data([1])))
        try CrashReportingConsent.set(enabled: false, stateDirectory: dir)
        #expect(CrashReportingConsent.storedChoice(stateDirectory: dir) == false)
        #expect(!CrashReportingConsent.isEnabled(stateDirectory: dir, environment: [:]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/pending").isEmpty)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["crash-reporting.consent", "pending"])

        try CrashReportingConsent.set(enabled: true, stateDirectory: dir)
        #expect(CrashReportingConsent.isEnabled(stateDirectory: dir, environment: [:]))
    }

    @Test("stale temporary files are removed, recent ones kept")
    func staleTemporaryFiles() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)")
        let dir = state.appendingPathComponent("pending").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        for name in ["old.crash.tmp", "new.crash.tmp", "kept.crash"] {
            #expect(FileManager.default.createFile(atPath: dir + "/" + name, contents: Data([1])))
        }
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: dir + "/old.crash.tmp")
        let store = ReportStore(stateDirectory: state.path)
        store.deleteStaleTemporaryFiles()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["kept.crash", "new.crash.tmp"])
        #expect(store.pendingReports() == [dir + "/kept.crash"])
    }
}
