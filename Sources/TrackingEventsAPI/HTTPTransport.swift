import Foundation
import Synchronization
import Tracking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP request of the events API.
public struct HTTPRequest: Sendable {
    public var url: URL
    public var method: String
    public var headers: [String: String]
    public var body: Data
    public var timeout: Duration

    public init(url: URL, method: String = "POST", headers: [String: String], body: Data, timeout: Duration) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// What came back. Header names are lowercased.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        self.body = body
    }
}

/// Sends requests. Throwing means no response arrived (network error, timeout, cancellation):
/// the batch is kept and retried later.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// `URLSession` (FoundationNetworking on Linux). Cancelling the calling task cancels the request.
public struct URLSessionTransport: HTTPTransport {
    private let session: URLSession

    public init(session: URLSession = .shared) {
        self.session = session
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        let (seconds, attoseconds) = request.timeout.components
        urlRequest.timeoutInterval = Double(seconds) + Double(attoseconds) / 1e18
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }

        let box = TaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let http = response as? HTTPURLResponse {
                        var headers: [String: String] = [:]
                        for (key, value) in http.allHeaderFields {
                            if let key = key as? String, let value = value as? String { headers[key] = value }
                        }
                        continuation.resume(
                            returning: HTTPResponse(status: http.statusCode, headers: headers, body: data ?? Data()))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                box.start(task)
            }
        } onCancel: {
            box.cancel()
        }
    }
}

/// Holds the data task so a cancellation that races the start still cancels it.
private final class TaskBox: Sendable {
    private struct State: @unchecked Sendable {
        // URLSessionTask is thread-safe but not marked Sendable on every platform.
        var task: URLSessionDataTask?
        var cancelled = false
    }
    private let state = Mutex(State())

    func start(_ task: URLSessionDataTask) {
        let cancelled = state.withLock { state -> Bool in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
        task.resume()
    }

    func cancel() {
        let task = state.withLock { state -> URLSessionDataTask? in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }
}
