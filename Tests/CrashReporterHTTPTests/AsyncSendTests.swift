import CrashReporterHTTP
import Synchronization
import TestSupport
import Testing

/// The async `send`: same exchange, on a thread of its own, cancellable.
@Suite struct AsyncSendTests {
    @Test func sendsFromAsyncCode() async throws {
        let server = try LoopbackServer(replying: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nasync")
        let client = HTTPClient(userAgent: "async-tests/1", environment: [:])
        let response = try await client.send(HTTPRequest(url: try HTTPURL(server.url), timeout: .seconds(10)))
        #expect(response.body == Array("async".utf8))
    }

    @Test func errorsComeBackTyped() async {
        let client = HTTPClient(userAgent: "async-tests/1", environment: [:])
        let port = closedPort()
        await #expect(throws: HTTPError.connectionRefused(host: "127.0.0.1", port: port)) {
            try await client.send(HTTPRequest(url: try HTTPURL("http://127.0.0.1:\(port)/"), timeout: .seconds(10)))
        }
    }

    @Test func cancellingTheTaskEndsTheRequest() async throws {
        let server = try LoopbackServer { _ in .silent }
        let client = HTTPClient(userAgent: "async-tests/1", environment: [:])
        let request = HTTPRequest(url: try HTTPURL(server.url), timeout: .seconds(600))
        let task = Task { () async throws(HTTPError) -> HTTPResponse in try await client.send(request) }
        // Cancel once the server holds the request, so the wait being cancelled is the real one.
        for _ in 0..<1000 where server.requests.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(server.requests.count == 1)
        task.cancel()
        await #expect(throws: HTTPError.cancelled) { try await task.value }
    }

    /// More requests wait on a silent server than the machine has cores; if they held threads of
    /// the cooperative pool, the probe task below could not run until they timed out.
    @Test func waitingRequestsLeaveTheCooperativePoolFree() async throws {
        let server = try LoopbackServer { _ in .silent }
        let client = HTTPClient(userAgent: "async-tests/1", environment: [:])
        let request = HTTPRequest(url: try HTTPURL(server.url), timeout: .seconds(60))
        let finished = Counter()
        let count = 16
        var tasks: [Task<Void, Never>] = []
        for _ in 0..<count {
            tasks.append(
                Task {
                    _ = try? await client.send(request)
                    finished.increment()
                })
        }
        for _ in 0..<1000 where server.requests.count < count { try await Task.sleep(for: .milliseconds(10)) }
        #expect(server.requests.count == count)
        let probe = await Task.detached { finished.value }.value
        #expect(probe == 0)
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        #expect(finished.value == count)
    }
}

/// A count shared between tasks.
private final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .sequentiallyConsistent) }
    func increment() { count.add(1, ordering: .sequentiallyConsistent) }
}
