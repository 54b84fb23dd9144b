import Foundation
import Testing

@testable import CrashReporterSupport

@Suite("Environment and settings")
struct EnvironmentTests {
    @Test("reads the environment as Foundation does, including later setenv calls")
    func environment() {
        setenv("SUPPORT_TEST_VALUE", "a=b c", 1)
        defer { unsetenv("SUPPORT_TEST_VALUE") }
        let ours = ProcessEnvironment.current()
        #expect(ours["SUPPORT_TEST_VALUE"] == "a=b c")
        #expect(ours == ProcessInfo.processInfo.environment)
    }

    @Test("the process name is argv[0]'s last component")
    func processName() {
        #expect(ProcessEnvironment.processName == URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent)
    }

    @Test("the home directory is an absolute $HOME, else the password database's")
    func homeDirectory() throws {
        #expect(EnvironmentSettings(["HOME": "/srv/home"]).homeDirectory == "/srv/home")
        let entry = try #require(getpwuid(getuid()))
        let fromDatabase = String(cString: entry.pointee.pw_dir)
        #expect(EnvironmentSettings(["HOME": "relative"]).homeDirectory == fromDatabase)
        #expect(EnvironmentSettings([:]).homeDirectory == fromDatabase)
    }

    @Test("the state directory, release and environment are trimmed text; blank is unset")
    func text() {
        #expect(EnvironmentSettings(["CRASH_REPORTER_DIR": " /var/lib/x "]).stateDirectory == "/var/lib/x")
        #expect(EnvironmentSettings(["CRASH_REPORTER_DIR": ""]).stateDirectory == nil)
        #expect(EnvironmentSettings(["SENTRY_RELEASE": "orders@1.4.2"]).text(.sentryRelease) == "orders@1.4.2")
        #expect(EnvironmentSettings(["SENTRY_ENVIRONMENT": " "]).text(.sentryEnvironment) == nil)
    }

    @Test("a value given in code stands in for its variable, checked by the same rule and blamed on its name")
    func given() throws {
        let settings = EnvironmentSettings(["CRASH_REPORTER_CAP_COUNT": "7", "CRASH_REPORTER_KEEP_DAYS": "2"])
        #expect(try settings.count(GivenSetting(3, name: "Options.capCount"), or: .capCount) == 3)
        #expect(try settings.count(GivenSetting(nil, name: "Options.capCount"), or: .capCount) == 7)
        #expect(try settings.seconds(nil, or: .keepDays) == 2)
        #expect {
            try settings.count(GivenSetting(-1, name: "--cap-count"), or: .capCount)
        } throws: { error in
            "\(error)" == #"--cap-count must be 0 or more (got "-1")"#
        }
        #expect {
            try EnvironmentSettings(["CRASH_REPORTER_KEEP_DAYS": "-1"]).seconds(nil, or: .keepDays)
        } throws: { error in
            "\(error)" == #"CRASH_REPORTER_KEEP_DAYS must be a number of seconds, zero or more (got "-1")"#
        }
        #expect(settings.text(" code ", or: .appName) == "code")
        #expect(EnvironmentSettings(["CRASH_REPORTER_APP_NAME": "env"]).text(" ", or: .appName) == "env")
        let protocols = EnvironmentSettings([
            "OTEL_EXPORTER_OTLP_LOGS_PROTOCOL": " ", "OTEL_EXPORTER_OTLP_PROTOCOL": "x",
        ])
        #expect(protocols.first(.otlpLogsProtocol, .otlpProtocol)?.variable == .otlpProtocol)
    }

    @Test("no module but the support module looks a variable up")
    func oneReader() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let reader = sources.appendingPathComponent("CrashReporterSupport/Environment").path + "/"
        let files = try #require(FileManager.default.enumerator(atPath: sources.path))
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 100)
        var readers: [String] = []
        for file in files {
            let path = sources.appendingPathComponent(file).path
            guard !path.hasPrefix(reader) else { continue }
            let text = try String(contentsOfFile: path, encoding: .utf8)
            for lookup in [#"environment\["#, #"\bgetenv\("#, #"\benviron\b"#]
            where text.range(of: lookup, options: .regularExpression) != nil {
                readers.append("\(file): \(lookup)")
            }
        }
        #expect(readers == [], "read the variable through EnvironmentSettings")
    }

    @Test("the state directory's root: systemd's, else an absolute XDG_STATE_HOME, else ~/.local/state")
    func platformStateBase() {
        #expect(EnvironmentSettings(["STATE_DIRECTORY": "/var/lib/a:/var/lib/b"]).platformStateBase == "/var/lib/a")
        #expect(EnvironmentSettings(["XDG_STATE_HOME": "/x", "HOME": "/h"]).platformStateBase == "/x")
        #expect(EnvironmentSettings(["XDG_STATE_HOME": "x", "HOME": "/h"]).platformStateBase == "/h/.local/state")
        #expect(EnvironmentSettings(["STATE_DIRECTORY": "", "HOME": "/h"]).platformStateBase == "/h/.local/state")
    }

    @Test("seconds: zero or more, finite; blank is unset")
    func seconds() throws {
        #expect(try Setting.seconds("30", name: "X") == 30)
        #expect(try Setting.seconds(" 0.5 ", name: "X") == 0.5)
        #expect(try Setting.seconds("0", name: "X") == 0)
        #expect(try Setting.seconds("1e3", name: "X") == 1000)
        #expect(try Setting.seconds(nil, name: "X") == nil)
        #expect(try Setting.seconds("  ", name: "X") == nil)
        for refused in ["-1", "-0.5", "nan", "NaN", "inf", "infinity", "1e400", "ten", "0x10", "5s", "1,5"] {
            #expect(throws: SettingError.self, "\(refused)") {
                try Setting.seconds(refused, name: "CRASH_REPORTER_RETRY_BASE_SECONDS")
            }
        }
        #expect(try Setting.seconds(2.5, name: "retryBaseDelay") == 2.5)
        #expect(throws: SettingError.self) { try Setting.seconds(-1, name: "retryBaseDelay") }
        #expect(throws: SettingError.self) { try Setting.seconds(.infinity, name: "retryBaseDelay") }
        #expect {
            try Setting.seconds("-1", name: "CRASH_REPORTER_RETRY_BASE_SECONDS")
        } throws: { error in
            "\(error)" == #"CRASH_REPORTER_RETRY_BASE_SECONDS must be a number of seconds, zero or more (got "-1")"#
        }
    }

    @Test("positive integers, booleans and trimmed text")
    func otherRules() throws {
        #expect(try Setting.positiveInteger("42", name: "N") == 42)
        #expect(try Setting.positiveInteger(nil, name: "N") == nil)
        for refused in ["0", "-3", "+3", "3.0", "0x10", "many", "99999999999999999999"] {
            #expect(throws: SettingError.self, "\(refused)") { try Setting.positiveInteger(refused, name: "N") }
        }
        for yes in ["1", "true", "TRUE", "Yes", " on "] { #expect(try Setting.boolean(yes, name: "B") == true) }
        for no in ["0", "false", "No", "OFF"] { #expect(try Setting.boolean(no, name: "B") == false) }
        #expect(try Setting.boolean("", name: "B") == nil)
        #expect {
            try Setting.boolean("maybe", name: "CRASH_REPORTER_DISABLED")
        } throws: { error in
            "\(error)" == #"CRASH_REPORTER_DISABLED must be one of 1, true, yes, on, 0, false, no, off (got "maybe")"#
        }
        #expect(Setting.text("  value \n") == "value")
        #expect(Setting.text(" \t") == nil)
        #expect(Setting.text(nil) == nil)
    }

    @Test(
        "http(s) URLs",
        arguments: [
            ("http://localhost:8080/reports", true), ("https://collector.example/api/v1?x=1", true),
            ("HTTPS://EXAMPLE.COM", true), ("http://[::1]:9000/", true), ("http://user:pw@host/", true),
            ("ftp://example.com", false), ("http://", false), ("http:///path", false), ("https://:80/", false),
            ("http://host:0/", false), ("http://host:65536/", false), ("http://host:x/", false),
            ("http://ho st/", false), ("example.com", false), ("http://[::1/", false), ("http://[]:80/", false),
            ("/relative", false),
        ])
    func urls(text: String, valid: Bool) throws {
        if valid {
            #expect(try Setting.httpURL(" \(text) ", name: "CRASH_REPORTER_URL") == text)
        } else {
            #expect {
                try Setting.httpURL(text, name: "CRASH_REPORTER_URL")
            } throws: { error in
                "\(error)".hasPrefix("CRASH_REPORTER_URL must be an http or https URL (got ")
            }
        }
    }

    @Test("the value in a message is quoted and escaped")
    func messageEscaping() {
        let error = SettingError(name: "N", value: "a\"b\n\u{1B}[2J", rule: "be short")
        #expect(error.description == #"N must be short (got "a\"b\n\u001b[2J")"#)
    }
}
