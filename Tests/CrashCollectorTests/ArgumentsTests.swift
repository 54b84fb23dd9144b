import ArgumentParser
import Testing

@testable import crash_collector

@Suite struct ArgumentsTests {
    private func configuration(_ arguments: [String], environment: [String: String] = [:]) throws -> Configuration {
        try CrashCollector.parse(arguments).configuration(environment: environment)
    }

    /// What parsing `arguments` (with `validate()`) says, and the exit status it gives.
    private func refusal(_ arguments: [String]) -> (message: String, status: Int32) {
        do {
            _ = try CrashCollector.parse(arguments)
        } catch {
            return (CrashCollector.message(for: error), CrashCollector.exitCode(for: error).rawValue)
        }
        Issue.record("\(arguments) was accepted")
        return ("", 0)
    }

    @Test func defaultsListenOnLoopback() throws {
        let defaults = try configuration([])
        #expect(defaults == Configuration())
        #expect(defaults.host == "127.0.0.1")
        #expect(defaults.port == 8089)
        #expect(defaults.sentryKey == nil)
        #expect(defaults.eventsWriteKeys.isEmpty)
        #expect(defaults.failNext == nil)
    }

    @Test func everyOption() throws {
        let parsed = try configuration([
            "--host", "localhost", "--port=0", "--data", "/tmp/d", "--sentry-key", "sk", "--events-write-key", "a",
            "--events-write-key=b", "--max-body", "100", "--read-timeout", "0.5", "--max-connections", "3",
            "--events-rate-per-key", "7", "--events-rate-per-install", "2", "--fail-next", "3", "429",
            "--retry-after", "9",
        ])
        #expect(parsed.host == "localhost")
        #expect(parsed.port == 0)
        #expect(parsed.dataDirectory == "/tmp/d")
        #expect(parsed.sentryKey == "sk")
        #expect(parsed.eventsWriteKeys == ["a", "b"])
        #expect(parsed.maxBodyBytes == 100)
        #expect(parsed.readTimeoutSeconds == 0.5)
        #expect(parsed.maxConnections == 3)
        #expect(parsed.eventsPerMinutePerKey == 7)
        #expect(parsed.eventsPerMinutePerInstall == 2)
        #expect(parsed.failNext == FaultInjection.Plan(count: 3, status: 429, retryAfter: 9))
    }

    @Test func environment() throws {
        let fromEnvironment = try configuration([], environment: ["CRASH_COLLECTOR_FAIL_NEXT": "2 500"])
        #expect(fromEnvironment.failNext == FaultInjection.Plan(count: 2, status: 500, retryAfter: 1))
        // The command line wins over the variable.
        let both = try configuration(["--fail-next", "1", "503"], environment: ["CRASH_COLLECTOR_FAIL_NEXT": "x"])
        #expect(both.failNext == FaultInjection.Plan(count: 1, status: 503, retryAfter: 1))
    }

    /// What `validate()` refuses, with its words.
    @Test(arguments: [
        (["--port", "65536"], "--port needs an integer in 0...65535, not 65536"),
        (["--host", "example.com"], "--host needs an IPv4 address or localhost, not 'example.com'"),
        (["--host", "::1"], "--host needs an IPv4 address or localhost, not '::1'"),
        (["--max-body", "0"], "--max-body needs an integer in 1...1073741824, not 0"),
        (["--read-timeout", "0"], "--read-timeout needs seconds in (0, 3600], not 0.0"),
        (["--read-timeout", "nan"], "--read-timeout needs seconds in (0, 3600], not nan"),
        (["--max-connections", "0"], "--max-connections needs an integer in 1...10000, not 0"),
        (["--events-rate-per-key", "0"], "--events-rate-per-key needs an integer in 1...10000000, not 0"),
        (["--retry-after", "86401"], "--retry-after needs an integer in 0...86400, not 86401"),
        (["--fail-next", "1"], "--fail-next needs a count and a status in 100...599, not '1'"),
        (["--fail-next", "1", "99"], "--fail-next needs a count and a status in 100...599, not '1 99'"),
        (["--fail-next", "1", "500", "7"], "--fail-next needs a count and a status in 100...599, not '1 500 7'"),
        (["--events-write-key", ""], "--events-write-key needs a key"),
        (["--data", ""], "--data needs a directory"),
    ])
    func validation(arguments: [String], message: String) {
        #expect(refusal(arguments) == (message, 64))
    }

    @Test(arguments: [
        (["--port"], "Missing value for '--port <port>'"),
        (["--port", "x"], "The value 'x' is invalid for '--port <port>'"),
        (["--bogus"], "Unknown option '--bogus'"), (["positional"], "Unexpected argument 'positional'"),
        (["--max-conections", "3"], "Unknown option '--max-conections'. Did you mean '--max-connections'?"),
    ])
    func parserErrors(arguments: [String], message: String) {
        #expect(refusal(arguments) == (message, 64))
    }

    @Test func badFailNextEnvironmentIsRefused() throws {
        let command = try CrashCollector.parse([])
        #expect(throws: ValidationError.self) {
            try command.configuration(environment: ["CRASH_COLLECTOR_FAIL_NEXT": "x"])
        }
        do {
            _ = try command.configuration(environment: ["CRASH_COLLECTOR_FAIL_NEXT": "1 2"])
        } catch {
            #expect(error.message == "CRASH_COLLECTOR_FAIL_NEXT must be \"N STATUS\", not '1 2'")
        }
    }

    @Test func faultInjectionCountsDown() {
        let faults = FaultInjection(FaultInjection.Plan(count: 2, status: 500))
        #expect(faults.next()?.status == 500)
        #expect(faults.next()?.status == 500)
        #expect(faults.next() == nil)
    }
}
