import Foundation
import Synchronization

@testable import Tracking

/// A fresh directory under the system's temporary directory, deleted when released.
final class TempDirectory: Sendable {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "tracking-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Every file below the directory, relative paths, sorted.
    var files: [String] {
        let enumerator = FileManager.default.enumerator(atPath: path)
        var out: [String] = []
        while let item = enumerator?.nextObject() as? String {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: path + "/" + item, isDirectory: &isDir), !isDir.boolValue {
                out.append(item)
            }
        }
        return out.sorted()
    }

    func contents(_ relative: String) -> String? {
        FileManager.default.contents(atPath: path + "/" + relative).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// A wire that records requests and answers from a script (default 200).
final class FakeTransport: HTTPTransport {
    typealias Reply = @Sendable (HTTPRequest) async throws -> HTTPResponse

    private let state = Mutex<(requests: [HTTPRequest], replies: [Reply])>(([], []))
    private let fallback: Reply

    init(
        fallback: @escaping Reply = { _ in
            HTTPResponse(status: 200, body: Data(#"{"accepted":0,"rejected":[],"clamped":[]}"#.utf8))
        }
    ) {
        self.fallback = fallback
    }

    /// Queues the answers for the next requests, in order.
    func script(_ replies: Reply...) {
        state.withLock { $0.replies.append(contentsOf: replies) }
    }

    static func status(_ code: Int, headers: [String: String] = [:]) -> Reply {
        { _ in HTTPResponse(status: code, headers: headers) }
    }

    static let networkDown: Reply = { _ in throw URLError(.notConnectedToInternet) }

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
            let object = try! JSONSerialization.jsonObject(with: request.body) as! [String: Any]
            return object["events"] as! [[String: Any]]
        }
    }

    var sentEventNames: [String] { batches.flatMap { $0.map { $0["name"] as! String } } }

    /// Every byte that went over the wire, as text.
    var wireText: String { requests.map { String(decoding: $0.body, as: UTF8.self) }.joined(separator: "\n") }
}

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let current = Mutex(ContinuousClock.now)
    var now: ContinuousClock.Instant { current.withLock { $0 } }
    func advance(_ duration: Duration) { current.withLock { $0 += duration } }
}

/// Breadcrumbs a tracker recorded, for tests that do not touch the global ring.
final class BreadcrumbRecorder: Sendable {
    struct Crumb: Sendable, Equatable {
        var message: String
        var data: [String]
    }
    private let crumbs = Mutex<[Crumb]>([])
    let enabled: Bool

    init(enabled: Bool = true) { self.enabled = enabled }

    var sink: Tracker.BreadcrumbSink {
        Tracker.BreadcrumbSink(
            isEnabled: { [enabled] in enabled },
            record: { message, data in
                self.crumbs.withLock { $0.append(Crumb(message: message, data: data.map { "\($0.key)=\($0.value)" })) }
            })
    }

    var all: [Crumb] { crumbs.withLock { $0 } }
}

struct Planted {
    /// Personal data a careless service might put into parameters.
    static let values: [String: TrackingValue] = [
        "email": "contact jane.roe@example.com now",
        "ip": "from 203.0.113.7",
        "ip6": "peer 2001:db8::7",
        "card": "4111 1111 1111 1111",
        "auth": "Bearer abcDEF123456.xyz",
        "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJlLXZhbHVl",
        "key": "api 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    ]
    /// Fragments that must never appear anywhere after scrubbing.
    static let fragments = [
        "jane.roe", "example.com", "203.0.113", "2001:db8", "4111", "abcDEF123456", "eyJhbGci", "9f86d0818",
    ]
}
