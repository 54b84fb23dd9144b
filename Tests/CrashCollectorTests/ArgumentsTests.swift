import Testing

@testable import crash_collector

@Suite struct ArgumentsTests {
    private func configuration(_ arguments: [String], environment: [String: String] = [:]) throws -> Configuration {
        guard case .serve(let configuration) = try parseArguments(arguments, environment: environment) else {
            throw UsageError(message: "expected serve")
        }
        return configuration
    }

    @Test func defaultsListenOnLoopback() throws {
        let defaults = try configuration([])
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

    @Test func helpVersionAndEnvironment() throws {
        #expect(try parseArguments(["--port", "1", "-h"]) == .help)
        #expect(try parseArguments(["--version"]) == .version)
        let fromEnvironment = try configuration([], environment: ["CRASH_COLLECTOR_FAIL_NEXT": "2 500"])
        #expect(fromEnvironment.failNext == FaultInjection.Plan(count: 2, status: 500, retryAfter: 1))
    }

    @Test(arguments: [
        ["--port"], ["--port", "-1"], ["--port", "65536"], ["--port", "x"], ["--host", "example.com"],
        ["--host", "::1"], ["--max-body", "0"], ["--read-timeout", "0"], ["--read-timeout", "nan"],
        ["--fail-next", "1"], ["--fail-next", "1", "99"], ["--fail-next", "-1", "500"], ["--events-write-key", ""],
        ["--data", ""], ["--bogus"], ["positional"], [""],
    ])
    func usageErrors(_ arguments: [String]) {
        #expect(throws: UsageError.self) { try parseArguments(arguments) }
    }

    @Test func badFailNextEnvironmentIsAUsageError() {
        #expect(throws: UsageError.self) { try parseArguments([], environment: ["CRASH_COLLECTOR_FAIL_NEXT": "x"]) }
    }

    @Test func faultInjectionCountsDown() {
        let faults = FaultInjection(FaultInjection.Plan(count: 2, status: 500))
        #expect(faults.next()?.status == 500)
        #expect(faults.next()?.status == 500)
        #expect(faults.next() == nil)
    }
}
