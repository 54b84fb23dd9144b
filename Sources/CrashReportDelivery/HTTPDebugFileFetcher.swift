import CrashReporterHTTP
import CrashSymbolication

/// ``DebugFileFetcher`` over the package's own HTTP client (https with the system's trust
/// store, proxies from the environment): what the tools and, when asked, the service's worker
/// give ``Debuginfod``. A `GET` with no header of its own beyond `User-Agent`; redirects are
/// followed, at most ``maxRedirects`` of them, within the one timeout.
public struct HTTPDebugFileFetcher: DebugFileFetcher {
    /// As many as elfutils' servers chain (a federating server, a mirror, a CDN) and then some.
    public static let maxRedirects = 8

    let environment: [String: String]

    /// Proxies and trust store come from `environment`.
    public init(environment: [String: String]) {
        self.environment = environment
    }

    public func fetch(_ url: String, maxBytes: Int, timeout: Duration) -> DebugFileFetch {
        let client = HTTPClient(
            userAgent: CrashReportVersion.userAgent, maxResponseBytes: maxBytes, environment: environment)
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var location = url
        for _ in 0...Self.maxRedirects {
            let remaining = deadline - clock.now
            guard remaining > .zero else { return .failed("no answer within \(timeout)") }
            let response: HTTPResponse
            do {
                response = try client.send(HTTPRequest(url: try HTTPURL(location), timeout: remaining))
            } catch {
                if case .responseTooLarge(let limit) = error {
                    return .failed("a file larger than \(limit) bytes (DEBUGINFOD_MAXSIZE)")
                }
                return .failed("\(error)")
            }
            switch response.status {
            case 200: return .file(response.body)
            case 404: return .notFound
            case 301, 302, 303, 307, 308:
                guard let next = response.headers["Location"].flatMap({ Self.resolve($0, against: location) }) else {
                    return .failed("HTTP \(response.status) without a usable Location")
                }
                location = next
            default:
                return .failed("HTTP \(response.status)")
            }
        }
        return .failed("more than \(Self.maxRedirects) redirects")
    }

    /// An absolute `Location`, or one relative to the host (`/…`) made absolute; nil otherwise.
    static func resolve(_ location: String, against base: String) -> String? {
        if location.hasPrefix("http://") || location.hasPrefix("https://") { return location }
        guard location.hasPrefix("/"), !location.hasPrefix("//"), let url = try? HTTPURL(base) else { return nil }
        return "\(url.scheme.rawValue)://\(url.authority)\(location)"
    }
}
