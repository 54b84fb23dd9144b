import Foundation
import TestSupport
import Testing

/// The next launch delivers what the last crash left, against a receiver that fails on
/// command: nothing lost, nothing sent twice under a different id, nothing sent after opt-out.
@Suite("Delivery at the next launch")
struct DeliveryTests {
    let binary = Binaries.crashTest(build: "debug")

    func files(_ sandbox: CrashSandbox, _ folder: String, _ suffix: String = ".crash") -> [String] {
        let dir = sandbox.state.appendingPathComponent(folder).path
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(suffix) }
            .sorted()
    }

    /// Crashes once and returns the id of the report left behind.
    func crashOnce(_ sandbox: CrashSandbox) async throws -> String {
        _ = try await sandbox.crash("segfault")
        let reports = sandbox.reports
        try #require(reports.count == 1)
        return String(reports[0].lastPathComponent.dropLast(".crash".count))
    }

    func relaunch(_ sandbox: CrashSandbox, url: String, _ extra: [String: String] = [:]) async throws
        -> ChildProcess.Result
    {
        var env = ["CRASH_REPORTER_URL": url, "CRASH_REPORTER_RETRY_BASE_SECONDS": "0"]
        env.merge(extra) { $1 }
        let result = try await sandbox.run(["run"], environment: env)
        #expect(result.exitCode == 0, "the service itself must never suffer: \(result.stderr)")
        return result
    }

    @Test("2xx: the report as written reaches the server once, with its id, and moves to delivered/")
    func delivers() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let id = try await crashOnce(sandbox)
        let original = try Data(contentsOf: sandbox.reports[0])
        let server = try FaultServer(responses: ["201"])
        let result = try await relaunch(sandbox, url: server.url)
        #expect(result.stdout.contains("delivered 1"))
        let requests = server.reportRequests
        try #require(requests.count == 1)
        #expect(FaultServer.header(requests[0], "X-Crash-Report-ID") == id)
        #expect(server.body(0) == original, "the body is the file as written")
        #expect(sandbox.reports.isEmpty)
        #expect(files(sandbox, "delivered") == ["\(id).crash"])

        _ = try await relaunch(sandbox, url: server.url)
        #expect(server.reportRequests.count == 1, "a delivered report is never sent again")
    }

    @Test(
        "network failures, 500 and resets keep the report; a later launch delivers it with the same id",
        arguments: [
            ["500", "201"], ["reset", "201"], ["503@0", "200"],
        ])
    func transientFailures(responses: [String]) async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let id = try await crashOnce(sandbox)
        let server = try FaultServer(responses: responses)
        // The first launch meets the failure; the worker retries after the (zero) backoff in
        // the same process, or the next launch does.
        _ = try await relaunch(sandbox, url: server.url)
        if !sandbox.reports.isEmpty { _ = try await relaunch(sandbox, url: server.url) }
        let requests = server.reportRequests
        #expect(requests.count == 2, "\(requests.map { $0["response"] ?? "" })")
        #expect(requests.allSatisfy { FaultServer.header($0, "X-Crash-Report-ID") == id })
        #expect(files(sandbox, "delivered") == ["\(id).crash"])
        #expect(sandbox.reports.isEmpty)
    }

    @Test("connection refused keeps the report and its retry state; nothing is lost")
    func connectionRefused() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let id = try await crashOnce(sandbox)
        _ = try await relaunch(
            sandbox, url: "http://127.0.0.1:\(closedPort())/api/reports", ["CRASH_REPORTER_RETRY_BASE_SECONDS": "3600"])
        #expect(sandbox.reports.map(\.lastPathComponent) == ["\(id).crash"])
        let state =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: sandbox.pending.appendingPathComponent("\(id).delivery"))) as? [String: Any]
        #expect(state?["attempts"] as? Int == 1)
        #expect(state?["next_attempt"] is String)
    }

    @Test("429 with Retry-After is honoured across restarts: no attempt before it is due")
    func retryAfterIsHonoured() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        _ = try await crashOnce(sandbox)
        let server = try FaultServer(responses: ["429@3600", "201"])
        _ = try await relaunch(sandbox, url: server.url)
        _ = try await relaunch(sandbox, url: server.url)
        #expect(server.reportRequests.count == 1, "the second launch waits out the hour")
        #expect(sandbox.reports.count == 1)
    }

    @Test("401 rejects the report for good, with the status and the server's reason")
    func permanentRejection() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let id = try await crashOnce(sandbox)
        let server = try FaultServer(responses: ["401"])
        _ = try await relaunch(sandbox, url: server.url)
        #expect(sandbox.reports.isEmpty)
        #expect(files(sandbox, "rejected") == ["\(id).crash"])
        let note =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: sandbox.state.appendingPathComponent("rejected/\(id).reason"))) as? [String: Any]
        #expect(note?["status"] as? Int == 401)
        let reason = note?["reason"] as? String ?? ""
        #expect(reason.contains("test server says 401"))
        _ = try await relaunch(sandbox, url: server.url)
        #expect(server.reportRequests.count == 1)
    }

    @Test("https: with the test CA trusted through SSL_CERT_FILE, the report reaches the receiver over TLS")
    func httpsWithSSLCertFile() async throws {
        let certificates = try TestCertificates.shared.get()
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let id = try await crashOnce(sandbox)
        let original = try Data(contentsOf: sandbox.reports[0])
        let server = try FaultServer(responses: ["201"], tls: certificates)
        #expect(server.url.hasPrefix("https://"))
        let result = try await relaunch(sandbox, url: server.url, ["SSL_CERT_FILE": certificates.caFile])
        #expect(result.stdout.contains("delivered 1"), "\(result.stdout)")
        let request = try #require(server.reportRequests.first)
        #expect(FaultServer.header(request, "X-Crash-Report-ID") == id)
        #expect(server.body(0) == original)
        #expect(files(sandbox, "delivered") == ["\(id).crash"])
    }

    @Test("a slow server times out and the report is kept")
    func slowServer() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        _ = try await crashOnce(sandbox)
        let server = try FaultServer(responses: ["slow@30"])
        _ = try await relaunch(
            sandbox, url: server.url,
            ["CRASH_REPORTER_UPLOAD_TIMEOUT_SECONDS": "0.5", "CRASH_REPORTER_RETRY_BASE_SECONDS": "3600"])
        #expect(sandbox.reports.count == 1)
        #expect(server.reportRequests.count == 1)
    }

    @Test("a damaged pending file is set aside in rejected/ with its reason; the good one is delivered")
    func damagedFile() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let id = try await crashOnce(sandbox)
        let data = try Data(contentsOf: sandbox.reports[0])
        let damagedID = "00000000-0000-4000-8000-000000000000"
        try data.prefix(data.count / 2).write(to: sandbox.pending.appendingPathComponent("\(damagedID).crash"))
        let server = try FaultServer(responses: ["201"])
        _ = try await relaunch(sandbox, url: server.url)
        #expect(files(sandbox, "delivered") == ["\(id).crash"])
        #expect(files(sandbox, "rejected") == ["\(damagedID).crash"])
        let note = try String(
            contentsOf: sandbox.state.appendingPathComponent("rejected/\(damagedID).reason"), encoding: .utf8)
        #expect(note.contains("damaged report"))
        #expect(server.reportRequests.count == 1)
    }

    @Test("opting out since the crash deletes the pending reports instead of sending them")
    func optOutSinceCrash() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        _ = try await crashOnce(sandbox)
        _ = try await sandbox.run(["consent", "crash-reporting", "off"])
        let server = try FaultServer(responses: ["201"])
        _ = try await relaunch(sandbox, url: server.url)
        #expect(server.reportRequests.isEmpty)
        #expect(sandbox.reports.isEmpty)
        #expect(files(sandbox, "delivered").isEmpty)
    }

    @Test("two processes starting at once on one directory send each report exactly once")
    func twoProcessesAtOnce() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        var ids: [String] = []
        for _ in 0..<3 {
            _ = try await sandbox.crash("abort")
        }
        ids = sandbox.reports.map { String($0.lastPathComponent.dropLast(".crash".count)) }.sorted()
        #expect(ids.count == 3)
        let server = try FaultServer(responses: ["201"])
        let env = sandbox.environment(["CRASH_REPORTER_URL": server.url])
        let running = try [0, 1].map { _ in
            try ChildProcess.start([sandbox.binary.path, "run"], environment: env)
        }
        var results: [ChildProcess.Result] = []
        for child in running { results.append(try await child.wait()) }
        #expect(results.allSatisfy { $0.exitCode == 0 })
        let sent = server.reportRequests.compactMap { FaultServer.header($0, "X-Crash-Report-ID") }
        #expect(sent.sorted() == ids, "each report exactly once")
        #expect(files(sandbox, "delivered") == ids.map { "\($0).crash" })
    }

    @Test("Sentry: a gzip envelope with the auth header, parsed by an independent reader, holds a native fatal event")
    func sentryEnvelope() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let id = try await crashOnce(sandbox)
        let server = try FaultServer(responses: ["200"])
        let dsn = "http://publickey123@127.0.0.1:\(server.port)/42"
        let result = try await sandbox.run(["run"], environment: ["SENTRY_DSN": dsn])
        #expect(result.exitCode == 0)
        let request = try #require(server.reportRequests.first)
        #expect(request["path"] as? String == "/api/42/envelope/")
        #expect(FaultServer.header(request, "Content-Encoding") == "gzip")
        let auth = FaultServer.header(request, "X-Sentry-Auth") ?? ""
        #expect(
            auth.hasPrefix("Sentry ") && auth.contains("sentry_key=publickey123") && auth.contains("sentry_version=7"))
        let envelope = try #require(request["envelope"] as? [String: Any])
        let header = try #require(envelope["header"] as? [String: Any])
        #expect(header["event_id"] as? String == id.replacingOccurrences(of: "-", with: ""))
        let items = try #require(envelope["items"] as? [[String: Any]])
        #expect(items.count == 1)
        #expect((items[0]["header"] as? [String: Any])?["type"] as? String == "event")
        let event = try #require(items[0]["payload"] as? [String: Any])
        #expect(event["level"] as? String == "fatal")
        #expect(event["platform"] as? String == "native")
        let exception = try #require((event["exception"] as? [String: Any])?["values"] as? [[String: Any]])
        let mechanism = try #require(exception.first?["mechanism"] as? [String: Any])
        #expect(mechanism["type"] as? String == "signalhandler")
        let frames = try #require((exception.first?["stacktrace"] as? [String: Any])?["frames"] as? [[String: Any]])
        #expect(frames.last?["function"] as? String == "crashBySegfault()", "innermost last, symbolicated")
        let images = try #require((event["debug_meta"] as? [String: Any])?["images"] as? [[String: Any]])
        #expect(images.contains { $0["type"] as? String == "elf" && ($0["code_id"] as? String)?.isEmpty == false })
        #expect(files(sandbox, "delivered") == ["\(id).crash"])
        let raw = String(decoding: try JSONSerialization.data(withJSONObject: event), as: UTF8.self)
        for secret in CrashSandbox.secrets { #expect(!raw.contains(secret), "\(secret) in the event") }
    }
}
