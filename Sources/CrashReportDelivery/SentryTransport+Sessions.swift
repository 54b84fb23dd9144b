import CrashReportFormat
import CrashReportSentry
import CrashReporterHTTP
import CrashReporterSupport

extension SentryTransport {
    /// The sessions as `session` items of one envelope, to the same endpoint as the events.
    package func send(sessions: [SentrySession]) -> DeliveryOutcome {
        let body: [UInt8]
        do {
            guard
                let envelope = try SentryEnvelope.make(
                    sessions: sessions, release: release, environment: environment, sdkName: Self.sdkName,
                    sdkVersion: CrashReportVersion.current)
            else {
                // No session has a release, and Sentry drops those: nothing has to go out.
                return .delivered
            }
            body = try Gzip.compress(envelope)
        } catch {
            return .rejected(status: nil, reason: "cannot build the session envelope: \(error)")
        }
        return post(request(envelope: body))
    }
}

extension HTTPEndpointTransport {
    /// The sessions as JSON, `{"sessions": [...]}`, POSTed to the report URL's sibling
    /// `sessions` (`/api/reports` becomes `/api/sessions`; docs/runs.md).
    package func send(sessions: [SentrySession]) -> DeliveryOutcome {
        let body: [UInt8]
        let target: HTTPURL
        do {
            body = try JSON.encode(["sessions": sessions])
            target = try HTTPURL(Self.sessionsURL(for: url))
        } catch {
            return .rejected(status: nil, reason: "cannot send the sessions: \(error)")
        }
        return post(
            HTTPRequest(
                url: target, method: "POST",
                headers: ["Content-Type": "application/json", "User-Agent": CrashReportVersion.userAgent],
                body: body, timeout: timeout))
    }

    /// The report URL with its last path segment replaced by `sessions` (the query dropped).
    package static func sessionsURL(for url: HTTPURL) -> String {
        var path =
            url.pathAndQuery.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first
            .map(String.init) ?? "/"
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        if let slash = path.lastIndex(of: "/") { path = String(path[...slash]) }
        return "\(url.scheme.rawValue)://\(url.authority)\(path)sessions"
    }
}
