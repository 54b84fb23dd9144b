// Stand-ins for the HTTP names a server stack brings into a service's files, without building
// one: swift-http-types declares `HTTPRequest` and `HTTPResponse`, Hummingbird `HTTPError`,
// swift-nio's NIOHTTP1 `HTTPHeaders` (Vapor re-exports it), AsyncHTTPClient `HTTPClient`. A file
// that imports such a module beside TrackingEventsAPI must still mean the server's types by the
// bare names.

/// A server's request (swift-http-types' `HTTPRequest`).
public struct HTTPRequest: Sendable {
    public var path: String
    public init(path: String) { self.path = path }
}

/// A server's response (swift-http-types' `HTTPResponse`).
public struct HTTPResponse: Sendable {
    public var status: Int
    public init(status: Int) { self.status = status }
}

/// A server's header fields (NIOHTTP1's `HTTPHeaders`).
public struct HTTPHeaders: Sendable {
    public var names: [String]
    public init(names: [String]) { self.names = names }
}

/// A route's thrown answer (Hummingbird's `HTTPError`).
public struct HTTPError: Error, Sendable {
    public var status: Int
    public init(status: Int) { self.status = status }
}

/// An HTTP client of the server stack's own (AsyncHTTPClient's `HTTPClient`).
public final class HTTPClient: Sendable {
    public let name: String
    public init(name: String) { self.name = name }
}
