import Testing

@testable import crash_collector

@Suite struct ArgumentsTests {
    @Test func defaultsListenOnLoopback() throws {
        guard case .serve(let configuration) = try parseArguments([]) else {
            Issue.record("expected serve")
            return
        }
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8089)
    }
}
