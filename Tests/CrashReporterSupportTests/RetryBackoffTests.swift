import Testing

@testable import CrashReporterSupport

@Suite("Retry back-off")
struct RetryBackoffTests {
    let backoff = RetryBackoff(
        base: .seconds(30), cap: .seconds(600), shortestServerWait: .seconds(1), longestServerWait: .seconds(3600),
        jitter: 0.2)

    @Test("doubles from the base to the cap; none before a failure; no overflow")
    func doubling() {
        #expect(backoff.delay(afterFailures: 0) == .zero)
        let waits = (1...7).map { backoff.delay(afterFailures: $0) }
        #expect(waits == [30, 60, 120, 240, 480, 600, 600].map(Duration.seconds))
        #expect(backoff.delay(afterFailures: Int.max) == .seconds(600))
    }

    @Test("jitter spreads the wait by its fraction either way")
    func jitter() {
        #expect(backoff.delay(afterFailures: 1, random: 0) == .seconds(24))
        #expect(backoff.delay(afterFailures: 1, random: 1) == .seconds(36))
        #expect(backoff.delay(afterFailures: 1, random: 0.5) == .seconds(30))
    }

    @Test("a server's wait is kept within its bounds and wins when longer")
    func serverWait() {
        #expect(backoff.serverWait(seconds: 0) == .seconds(1))
        #expect(backoff.serverWait(seconds: 1e20) == .seconds(3600))
        #expect(backoff.wait(afterFailures: 1, serverSeconds: 5) == .seconds(30))
        #expect(backoff.wait(afterFailures: 1, serverSeconds: 120) == .seconds(120))
        #expect(backoff.wait(afterFailures: 1, serverSeconds: nil) == .seconds(30))
    }
}
