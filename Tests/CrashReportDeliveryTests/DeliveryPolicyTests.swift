import CrashReporterHTTP
import CrashReporterSupport
import Foundation
import Testing

@testable import CrashReportDelivery

@Suite("Delivery policy")
struct DeliveryPolicyTests {
    let now = Timestamp(seconds: 1_800_000_000)
    let policy = DeliveryPolicy(
        backoff: RetryBackoff(base: .seconds(30), cap: .seconds(600), longestServerWait: .seconds(3600), jitter: 0.2),
        maximumAttempts: 5, maximumAge: .seconds(86400))

    func response(_ status: Int, retryAfter: Double? = nil, reason: String = "") -> DeliveryOutcome {
        DeliveryOutcome(status: status, serverWait: retryAfter.map { Duration.seconds($0) }, reason: reason)
    }

    @Test("2xx is delivered", arguments: [200, 201, 202, 204, 299])
    func delivered(status: Int) {
        #expect(policy.decide(response(status), state: DeliveryState(), now: now, random: 0.5) == .delivered)
    }

    @Test("a request that could not be made or a damaged report is rejected without a status")
    func localOutcomes() {
        let unsendable = policy.decide(
            .rejected(status: nil, reason: "cannot build the envelope"), state: DeliveryState(), now: now,
            random: 0.5)
        #expect(unsendable == .reject(status: nil, reason: "cannot build the envelope"))
        let damaged = policy.decide(.damaged(reason: "bad gzip"), state: DeliveryState(), now: now, random: 0.5)
        #expect(damaged == .reject(status: nil, reason: "damaged report: bad gzip"))
        #expect(DeliveryOutcome.rejected(status: nil, reason: "x").description == "x")
    }

    @Test("network errors, 408, 429 and 5xx are retried", arguments: [408, 429, 500, 502, 503, 599])
    func transient(status: Int) {
        guard
            case .retry(let at, let state) = policy.decide(
                response(status), state: DeliveryState(), now: now, random: 0.5)
        else {
            Issue.record("not retried")
            return
        }
        #expect(at == now.adding(seconds: 30))
        #expect(state.attempts == 1)
        #expect(state.firstAttempt == now)
        #expect(state.nextAttempt == at)
        #expect(state.lastError?.hasPrefix("HTTP \(status)") == true)
        guard case .retry = policy.decide(.noAnswer("refused"), state: DeliveryState(), now: now, random: 0.5)
        else {
            Issue.record("a network error is not retried")
            return
        }
    }

    @Test(
        "any other 4xx is rejected with the status and the server's reason", arguments: [400, 401, 403, 404, 413, 422])
    func rejected(status: Int) {
        #expect(
            policy.decide(response(status, reason: "no such project"), state: DeliveryState(), now: now, random: 0.5)
                == .reject(status: status, reason: "no such project"))
        #expect(
            policy.decide(response(status), state: DeliveryState(), now: now, random: 0.5)
                == .reject(status: status, reason: "HTTP \(status)"))
    }

    @Test("the backoff doubles up to its cap, jittered within ±20 %")
    func backoff() {
        let plain = (1...8).map { policy.backoff.delay(afterFailures: $0, random: 0.5).inSeconds }
        #expect(plain == [30, 60, 120, 240, 480, 600, 600, 600])
        #expect(policy.backoff.delay(afterFailures: 1, random: 0) == .seconds(24))
        #expect(policy.backoff.delay(afterFailures: 1, random: 0.999_999).inSeconds.rounded() == 36)
        #expect(
            policy.backoff.delay(afterFailures: 10_000, random: 0.5) == .seconds(600), "no overflow for huge counts")
    }

    @Test("Retry-After is honoured when longer than the backoff, up to its cap")
    func retryAfter() {
        let cases: [(Double, Double)] = [(5, 30), (120, 120), (100_000, 3600)]
        for (asked, expected) in cases {
            guard
                case .retry(let at, _) = policy.decide(
                    response(429, retryAfter: asked), state: DeliveryState(), now: now, random: 0.5)
            else {
                Issue.record("not retried")
                continue
            }
            #expect(at == now.adding(seconds: expected), "asked \(asked)")
        }
    }

    @Test("gives up after the maximum number of attempts and after the maximum age")
    func givesUp() {
        let worn = DeliveryState(attempts: 4, firstAttempt: now.adding(seconds: -60))
        guard case .reject(nil, let reason) = policy.decide(response(503), state: worn, now: now, random: 0.5) else {
            Issue.record("not rejected after 5 attempts")
            return
        }
        #expect(reason.contains("5 attempts"))
        let old = DeliveryState(attempts: 1, firstAttempt: now.adding(seconds: -86401))
        guard case .reject(nil, let reason2) = policy.decide(.noAnswer("down"), state: old, now: now, random: 0.5)
        else {
            Issue.record("not rejected after a day")
            return
        }
        #expect(reason2.contains("down"))
        // A 2xx still wins, however late.
        #expect(policy.decide(response(200), state: old, now: now, random: 0.5) == .delivered)
    }
}

@Suite("Retry-After and Sentry rate limits")
struct ServerRetryDelayTests {
    let now = Timestamp(seconds: 1_800_000_000)

    @Test func seconds() {
        #expect(ServerRetryDelay.parse(headers: ["Retry-After": "120"], now: now) == 120)
        #expect(ServerRetryDelay.parse(headers: ["retry-after": " 7 "], now: now) == 7)
        #expect(ServerRetryDelay.parse(headers: [:], now: now) == nil)
        #expect(ServerRetryDelay.parse(headers: ["Retry-After": "soon"], now: now) == nil)
        #expect(ServerRetryDelay.parse(headers: ["Retry-After": "-5"], now: now) == nil)
    }

    @Test func httpDate() {
        // 1_800_000_000 is Fri, 15 Jan 2027 08:00:00 GMT.
        #expect(ServerRetryDelay.parse(headers: ["Retry-After": "Fri, 15 Jan 2027 08:01:00 GMT"], now: now) == 60)
        #expect(ServerRetryDelay.parse(headers: ["Retry-After": "Fri, 15 Jan 2027 07:00:00 GMT"], now: now) == 0)
    }

    @Test func sentryRateLimits() {
        #expect(ServerRetryDelay.parse(headers: ["X-Sentry-Rate-Limits": "60:error:organization"], now: now) == 60)
        #expect(
            ServerRetryDelay.parse(headers: ["X-Sentry-Rate-Limits": "60::organization"], now: now) == 60,
            "all categories")
        #expect(ServerRetryDelay.parse(headers: ["X-Sentry-Rate-Limits": "60:transaction:key"], now: now) == nil)
        #expect(
            ServerRetryDelay.parse(
                headers: ["X-Sentry-Rate-Limits": "10:transaction:key, 30:error;default:project"], now: now)
                == 30)
        #expect(
            ServerRetryDelay.parse(
                headers: ["X-Sentry-Rate-Limits": "30:error:project", "Retry-After": "90"], now: now)
                == 90,
            "the longer wait wins")
    }

    @Test("every occurrence of a repeated header counts")
    func repeatedHeaders() {
        var headers = HTTPHeaders()
        headers.append("X-Sentry-Rate-Limits", "10:error:project")
        headers.append("x-sentry-rate-limits", "45:default:organization")
        headers.append("X-Sentry-Rate-Limits", "600:transaction:key")
        #expect(ServerRetryDelay.parse(headers: headers, now: now) == 45)
        headers.append("Retry-After", "soon")
        headers.append("Retry-After", "70")
        #expect(ServerRetryDelay.parse(headers: headers, now: now) == 70, "an unreadable one does not hide the next")
    }
}

@Suite("Report store")
struct ReportStoreTests {
    func makeStore(keep: Int = 2) throws -> ReportStore {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("pending"), withIntermediateDirectories: true)
        return ReportStore(stateDirectory: dir.path, keepDelivered: keep)
    }

    func add(_ store: ReportStore, _ id: String, age: TimeInterval) throws -> String {
        let path = store.pending + "/\(id).crash"
        try Data(id.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: path)
        return path
    }

    @Test("pending reports come oldest first; temporary files are not reports")
    func order() throws {
        let store = try makeStore()
        defer { try? FileManager.default.removeItem(atPath: store.stateDirectory) }
        _ = try add(store, "b", age: 10)
        _ = try add(store, "a", age: 30)
        _ = try add(store, "c", age: 20)
        try Data().write(to: URL(fileURLWithPath: store.pending + "/d.crash.tmp"))
        #expect(store.pendingReports().map(ReportStore.id(of:)) == ["a", "c", "b"])
    }

    @Test("retry state survives a new store on the same directory; delivered reports are pruned to N")
    func stateAndPruning() throws {
        let store = try makeStore(keep: 2)
        defer { try? FileManager.default.removeItem(atPath: store.stateDirectory) }
        let state = DeliveryState(
            attempts: 3, firstAttempt: Timestamp(seconds: 1000),
            nextAttempt: Timestamp(seconds: 2000), lastError: "HTTP 503")
        try store.save(state, id: "x")
        #expect(ReportStore(stateDirectory: store.stateDirectory).state(id: "x") == state)
        for (i, id) in ["p", "q", "r"].enumerated() {
            let url = try add(store, id, age: Double(100 - i))
            try store.markDelivered(url)
        }
        #expect(ReportStore.reports(in: store.delivered).map(ReportStore.id(of:)) == ["q", "r"])
        #expect(store.pendingReports().isEmpty)
    }

    @Test("a rejected report keeps its reason and loses its retry state")
    func rejection() throws {
        let store = try makeStore()
        defer { try? FileManager.default.removeItem(atPath: store.stateDirectory) }
        let url = try add(store, "z", age: 0)
        try store.save(DeliveryState(attempts: 1), id: "z")
        try store.markRejected(url, status: 401, reason: "bad key", now: Timestamp(seconds: 5))
        #expect(
            store.rejection(id: "z")
                == RejectionNote(status: 401, reason: "bad key", at: Timestamp(seconds: 5)))
        #expect(FileManager.default.fileExists(atPath: store.rejected + "/z.crash"))
        #expect(store.state(id: "z") == DeliveryState())
    }

    @Test("the directory lock is exclusive and released with its holder")
    func lock() throws {
        let store = try makeStore()
        defer { try? FileManager.default.removeItem(atPath: store.stateDirectory) }
        var first: DirectoryLock? = DirectoryLock(stateDirectory: store.stateDirectory)
        #expect(first != nil)
        #expect(DirectoryLock(stateDirectory: store.stateDirectory) == nil)
        first = nil
        #expect(DirectoryLock(stateDirectory: store.stateDirectory) != nil)
    }
}
