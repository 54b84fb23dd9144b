import CrashReporterSupport
import Testing

@testable import Tracking
@testable import TrackingEventsAPI

@Suite("Delivery state machine")
struct DeliveryStateMachineTests {
    let t0 = ContinuousClock.now

    func status(_ code: Int, retryAfter: Duration?) -> DeliveryOutcome {
        DeliveryOutcome(status: code, serverWait: retryAfter, reason: "")
    }

    @Test("backoff doubles from 30 s and stops at 10 min")
    func backoffSchedule() {
        let waits = (1...8).map { DeliveryStateMachine.retryBackoff.delay(afterFailures: $0) }
        #expect(
            waits == [
                .seconds(30), .seconds(60), .seconds(120), .seconds(240), .seconds(480), .seconds(600), .seconds(600),
                .seconds(600),
            ])
        #expect(DeliveryStateMachine.retryBackoff.delay(afterFailures: 1000) == .seconds(600))
    }

    @Test("one attempt at a time")
    func oneAtATime() {
        var m = DeliveryStateMachine()
        let check18 = m.startSending(at: t0)
        #expect(check18)
        let check19 = !m.startSending(at: t0)
        #expect(check19)
        #expect(m.state == .sending)
    }

    @Test("network errors and 5xx keep the batch and wait longer each time")
    func networkAndServerErrors() {
        var m = DeliveryStateMachine()
        var now = t0
        let outcomes: [DeliveryOutcome] = [
            .noAnswer("refused"), status(503, retryAfter: nil), status(500, retryAfter: nil),
        ]
        let expected: [Duration] = [.seconds(30), .seconds(60), .seconds(120)]
        for (outcome, wait) in zip(outcomes, expected) {
            let check30 = m.startSending(at: now)
            #expect(check30)
            let check31 = m.finish(outcome, batchCount: 5, at: now) == .keep(retryAt: now + wait)
            #expect(check31)
            #expect(!m.canSend(at: now + wait - .milliseconds(1)))
            #expect(m.canSend(at: now + wait))
            now = now + wait
        }
        #expect(m.failures == 3)
    }

    @Test("success removes the batch and resets the backoff")
    func successResets() {
        var m = DeliveryStateMachine()
        _ = m.startSending(at: t0)
        _ = m.finish(.noAnswer("refused"), batchCount: 1, at: t0)
        let later = t0 + .seconds(30)
        let check45 = m.startSending(at: later)
        #expect(check45)
        let check46 = m.finish(status(200, retryAfter: nil), batchCount: 1, at: later) == .remove(delivered: true)
        #expect(check46)
        #expect(m.failures == 0)
        #expect(m.state == .idle)
        _ = m.startSending(at: later)
        let check50 = m.finish(.noAnswer("refused"), batchCount: 1, at: later) == .keep(retryAt: later + .seconds(30))
        #expect(check50)
    }

    @Test("429 waits Retry-After, clamped to 1 s … 1 h, without growing the backoff")
    func rateLimited() {
        var m = DeliveryStateMachine()
        _ = m.startSending(at: t0)
        let check57 =
            m.finish(status(429, retryAfter: .seconds(7)), batchCount: 3, at: t0) == .keep(retryAt: t0 + .seconds(7))
        #expect(check57)
        #expect(m.failures == 0)
        _ = m.startSending(at: t0 + .seconds(7))
        let check60 =
            m.finish(status(429, retryAfter: .zero), batchCount: 3, at: t0) == .keep(retryAt: t0 + .seconds(1))
        #expect(check60)
        _ = m.startSending(at: t0 + .seconds(1))
        let check62 =
            m.finish(status(429, retryAfter: .seconds(99_999)), batchCount: 3, at: t0)
            == .keep(retryAt: t0 + .seconds(3600))
        #expect(check62)
    }

    @Test("429 without Retry-After backs off")
    func rateLimitedWithoutHeader() {
        var m = DeliveryStateMachine()
        _ = m.startSending(at: t0)
        let check69 =
            m.finish(status(429, retryAfter: nil), batchCount: 3, at: t0) == .keep(retryAt: t0 + .seconds(30))
        #expect(check69)
    }

    @Test("other 4xx drop the batch", arguments: [400, 401, 403, 404, 422])
    func clientErrorsDrop(_ code: Int) {
        var m = DeliveryStateMachine()
        _ = m.startSending(at: t0)
        let check76 = m.finish(status(code, retryAfter: nil), batchCount: 10, at: t0) == .remove(delivered: false)
        #expect(check76)
        #expect(m.canSend(at: t0))
    }

    @Test("413 halves the batch until one event is left, which is dropped")
    func payloadTooLarge() {
        var m = DeliveryStateMachine(maxBatchSize: 100)
        _ = m.startSending(at: t0)
        let check84 = m.finish(status(413, retryAfter: nil), batchCount: 100, at: t0) == .keep(retryAt: t0)
        #expect(check84)
        #expect(m.batchSize == 50)
        _ = m.startSending(at: t0)
        _ = m.finish(status(413, retryAfter: nil), batchCount: 3, at: t0)
        #expect(m.batchSize == 1)
        _ = m.startSending(at: t0)
        let check90 = m.finish(status(413, retryAfter: nil), batchCount: 1, at: t0) == .remove(delivered: false)
        #expect(check90)
        _ = m.startSending(at: t0)
        _ = m.finish(status(200, retryAfter: nil), batchCount: 1, at: t0)
        #expect(m.batchSize == 100)
    }

    @Test("reset cancels the wait")
    func resetCancels() {
        var m = DeliveryStateMachine()
        _ = m.startSending(at: t0)
        _ = m.finish(status(503, retryAfter: nil), batchCount: 1, at: t0)
        #expect(!m.canSend(at: t0))
        m.reset()
        #expect(m.canSend(at: t0))
        #expect(m.failures == 0)
    }

    @Test("Retry-After as seconds or an HTTP date")
    func parseRetryAfter() {
        let zero = Timestamp(milliseconds: 0)
        #expect(DeliveryStateMachine.parseRetryAfter("120", now: zero) == .seconds(120))
        #expect(DeliveryStateMachine.parseRetryAfter(nil, now: zero) == nil)
        #expect(DeliveryStateMachine.parseRetryAfter("soon", now: zero) == nil)
        // 784111777 is Sun, 06 Nov 1994 08:49:37 GMT.
        #expect(
            DeliveryStateMachine.parseRetryAfter(
                "Sun, 06 Nov 1994 08:49:37 GMT", now: Timestamp(seconds: 784_111_777 - 90)) == .seconds(90))
        #expect(
            DeliveryStateMachine.parseRetryAfter(
                "Sun, 06 Nov 1994 08:49:37 GMT", now: Timestamp(seconds: 784_111_777 + 5)) == .zero)
    }

    @Test("an absurd Retry-After is cut to the longest wait, not an overflow")
    func hugeRetryAfter() {
        let zero = Timestamp(milliseconds: 0)
        for value in ["99999999999999999999", "9999999999", "3601"] {
            #expect(
                DeliveryStateMachine.parseRetryAfter(value, now: zero)
                    == DeliveryStateMachine.retryBackoff.longestServerWait)
        }
        #expect(DeliveryStateMachine.parseRetryAfter("3599", now: zero) == .seconds(3599))
    }
}
