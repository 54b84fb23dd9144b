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
        #expect(waits == [30, 60, 120, 240, 480, 600, 600].map { Duration.seconds($0) })
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
        #expect(backoff.serverWait(.zero) == .seconds(1))
        #expect(backoff.serverWait(.seconds(86400)) == .seconds(3600))
        #expect(backoff.wait(afterFailures: 1, serverWait: .seconds(5)) == .seconds(30))
        #expect(backoff.wait(afterFailures: 1, serverWait: .seconds(120)) == .seconds(120))
        #expect(backoff.wait(afterFailures: 1, serverWait: nil) == .seconds(30))
    }

    @Test("a server's answer maps to one outcome")
    func outcome() {
        #expect(DeliveryOutcome(status: 204, serverWait: nil, reason: "") == .delivered)
        for status in [408, 429, 500, 503, 599] {
            #expect(
                DeliveryOutcome(status: status, serverWait: .seconds(9), reason: "busy")
                    == .retryAfter(.seconds(9), reason: "HTTP \(status): busy"))
        }
        #expect(DeliveryOutcome(status: 401, serverWait: nil, reason: "") == .rejected(status: 401, reason: "HTTP 401"))
        #expect(DeliveryOutcome(status: 413, serverWait: nil, reason: "big") == .rejected(status: 413, reason: "big"))
        #expect(DeliveryOutcome.noAnswer("refused") == .retryAfter(nil, reason: "network error: refused"))
        #expect(DeliveryOutcome.serverWait(seconds: 1e20) == DeliveryOutcome.longestServerWait, "no overflow")
        #expect(DeliveryOutcome.serverWait(seconds: nil) == nil)
    }
}
