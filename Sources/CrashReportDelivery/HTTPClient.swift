import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One blocking HTTP POST with a timeout, turned into a `DeliveryOutcome`. The delivery
/// worker is a plain thread, so blocking here is what it wants.
struct HTTPClient: Sendable {
    var timeout: TimeInterval = 30

    func post(url: URL, headers: [String: String], body: Data) -> DeliveryOutcome {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "POST"
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body

        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 2
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }

        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { data, response, error in
            box.set(data: data, response: response as? HTTPURLResponse, error: error)
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + timeout * 2 + 5) == .timedOut {
            task.cancel()
            return .networkError("timed out after \(Int(timeout))s")
        }
        let (data, response, error) = box.get()
        if let error { return .networkError(error.localizedDescription) }
        guard let response else { return .networkError("no HTTP response") }
        var fields: [String: String] = [:]
        for (key, value) in response.allHeaderFields {
            if let key = key as? String, let value = value as? String { fields[key] = value }
        }
        return .response(
            status: response.statusCode, retryAfter: RetryAfter.parse(headers: fields, now: Date()),
            reason: Self.reason(from: data))
    }

    /// The server's words, on one line and bounded.
    static func reason(from data: Data?) -> String {
        guard let data, !data.isEmpty else { return "" }
        let text = String(decoding: data.prefix(400), as: UTF8.self)
        return text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
    }
}

/// Carries the callback's values to the waiting thread.
private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    private var response: HTTPURLResponse?
    private var error: (any Error)?

    func set(data: Data?, response: HTTPURLResponse?, error: (any Error)?) {
        lock.lock()
        defer { lock.unlock() }
        self.data = data
        self.response = response
        self.error = error
    }

    func get() -> (Data?, HTTPURLResponse?, (any Error)?) {
        lock.lock()
        defer { lock.unlock() }
        return (data, response, error)
    }
}
