import ServerFrameworkNames
import Synchronization
import TestSupport
import Testing
import Tracking
import TrackingEventsAPI

// Written as a service's own file is: no @testable import, and a server stack imported beside
// TrackingEventsAPI. If TrackingEventsAPI put its HTTP names in scope again, the bare names
// below would be ambiguous and this target would not compile.

/// A transport as docs/tracking.md shows one, recording what it is asked to send.
final class RecordingTransport: HTTPTransport {
    private let sent = Mutex<[Request]>([])

    func send(_ request: Request) async throws -> Response {
        sent.withLock { $0.append(request) }
        return Response(status: 200, headers: ["Content-Type": "application/json"], body: Array(#"{}"#.utf8))
    }

    var requests: [Request] { sent.withLock { $0 } }
}

@Suite("A service's file that imports TrackingEventsAPI beside a server stack")
struct ServiceFileTests {
    let dir = TempDirectory()

    /// A route's error answer, as a service writes one: the server's types in its signature.
    static func answer(_ error: HTTPError, to request: HTTPRequest, headers: HTTPHeaders) -> HTTPResponse {
        HTTPResponse(status: request.path.isEmpty ? 400 : error.status + headers.names.count)
    }

    @Test("the server's HTTP names keep their meaning")
    func serverNamesAreTheServers() {
        let request: HTTPRequest = .init(path: "/orders")
        let headers: HTTPHeaders = .init(names: ["content-type"])
        let client: HTTPClient = .init(name: "upstream")
        let response: HTTPResponse = Self.answer(HTTPError(status: 404), to: request, headers: headers)
        #expect(response.status == 405)
        #expect(client.name == "upstream")
    }

    @Test("a transport written with HTTPTransport.Request and .Response carries the events")
    func transportSendsEvents() async throws {
        let transport = RecordingTransport()
        let provider = EventsAPIProvider(
            stateDirectory: dir.path,
            options: EventsAPIOptions(baseURL: "http://collector.test/v1", writeKey: "aso_wk_test"),
            transport: transport, environment: [:])
        let tracker = Tracker(stateDirectory: dir.path, providers: [provider])
        try tracker.setAnalyticsConsent(granted: true)
        tracker.track(NamedEvent("order_placed", parameters: ["items": 3]))
        await tracker.flush()
        let request = try #require(transport.requests.first)
        #expect(request.url.description == "http://collector.test/v1/events")
        #expect(request.method == "POST")
        #expect(request.headers["X-Write-Key"] == "aso_wk_test")
        #expect(String(decoding: request.body, as: UTF8.self).contains(#""name":"order_placed""#))
    }
}
