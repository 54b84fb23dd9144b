import CrashReporterHTTP
import CrashReporterSupport
import Foundation
import Tracking

@testable import TrackingEventsAPI

/// A wire that records requests and answers from a script (default 200).
final class FakeTransport: HTTPTransport {
    typealias Reply = @Sendable (HTTPRequest) async throws -> HTTPResponse

    private let state = Lock<(requests: [HTTPRequest], replies: [Reply])>(([], []))
    private let fallback: Reply

    init(
        fallback: @escaping Reply = { _ in
            HTTPResponse(status: 200, body: Array(#"{"accepted":0,"rejected":[],"clamped":[]}"#.utf8))
        }
    ) {
        self.fallback = fallback
    }

    /// Queues the answers for the next requests, in order.
    func script(_ replies: Reply...) {
        state.withLock { $0.replies.append(contentsOf: replies) }
    }

    static func status(_ code: Int, headers: HTTPHeaders = [:]) -> Reply {
        { _ in HTTPResponse(status: code, headers: headers) }
    }

    static let networkDown: Reply = { request in
        throw HTTPError.connectionRefused(host: request.url.host, port: request.url.port)
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let reply = state.withLock { state -> Reply in
            state.requests.append(request)
            return state.replies.isEmpty ? fallback : state.replies.removeFirst()
        }
        return try await reply(request)
    }

    var requests: [HTTPRequest] { state.withLock { $0.requests } }

    /// The events of each request, decoded.
    var batches: [[[String: Any]]] {
        requests.map { request in
            let object = try! JSONSerialization.jsonObject(with: Data(request.body)) as! [String: Any]
            return object["events"] as! [[String: Any]]
        }
    }

    var sentEventNames: [String] { batches.flatMap { $0.map { $0["name"] as! String } } }

    /// Every byte that went over the wire, as text.
    var wireText: String { requests.map { String(decoding: $0.body, as: UTF8.self) }.joined(separator: "\n") }
}

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let current = Lock(ContinuousClock.now)
    var now: ContinuousClock.Instant { current.withLock { $0 } }
    func advance(_ duration: Duration) { current.withLock { $0 += duration } }
}
