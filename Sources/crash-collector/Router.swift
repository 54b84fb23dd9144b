import CrashCollectorParsers
import CrashReportFormat
import CrashReporterHTTP
import CrashReporterSupport

extension Collector {
    /// Routes a request to its endpoint; 404 for unknown paths, 405 for a wrong method.
    func respond(to request: ReceivedRequest) -> HTTPResponse {
        let path = request.path
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        var method = request.method
        if method == "HEAD" { method = "GET" }

        func only(_ allowed: String, _ handler: () -> HTTPResponse) -> HTTPResponse {
            if method == allowed { return handler() }
            let allow = allowed == "GET" ? "GET, HEAD" : allowed
            return Self.error(405, "method \(request.method) not allowed on \(path)", headers: [("Allow", allow)])
        }

        // A report POSTed to the base URL is taken as at /api/reports: `CRASH_REPORTER_URL` set to
        // the address the collector prints works
        // (docs/decisions/0107-the-collector-takes-a-report-posted-to-its-base-url.md).
        if segments == [""] {
            switch method {
            case "GET": return indexPage(query: request.head.query)
            case "POST": return failIfPlanned() ?? withDecodedBody(of: request) { uploadReport(request, body: $0) }
            default:
                return Self.error(
                    405, "method \(request.method) not allowed on \(path)", headers: [("Allow", "GET, HEAD, POST")])
            }
        }
        if segments.count == 2, segments[0] == "groups", !segments[1].isEmpty {
            return only("GET") { groupPage(key: segments[1], query: request.head.query) }
        }
        if segments == ["api", "reports"] {
            switch method {
            case "GET": return listReports()
            case "POST": return failIfPlanned() ?? withDecodedBody(of: request) { uploadReport(request, body: $0) }
            default:
                return Self.error(
                    405, "method \(request.method) not allowed on \(path)", headers: [("Allow", "GET, HEAD, POST")])
            }
        }
        if segments == ["api", "sessions"] { return only("POST") { withDecodedBody(of: request, receiveSessions) } }
        if segments == ["api", "groups"] { return only("GET") { listGroups() } }
        if segments == ["api", "events"] { return only("GET") { eventCounts() } }
        if segments.count == 2, segments[0] == "reports", !segments[1].isEmpty {
            return only("GET") { showReport(id: segments[1], query: request.head.query) }
        }
        // /api/<project>/envelope/ (the trailing slash is optional)
        if segments.count >= 3, segments.count <= 4, segments[0] == "api", !segments[1].isEmpty,
            segments[2] == "envelope", segments.count == 3 || segments[3].isEmpty
        {
            return only("POST") { failIfPlanned() ?? receiveEnvelope(request) }
        }
        if segments == ["v1", "events"] { return only("POST") { receiveEvents(request) } }
        if segments == ["v1", "logs"] {
            return only("POST") { failIfPlanned() ?? receiveLogs(request) }
        }
        if segments == ["api", "logs"] { return only("GET") { listLogs() } }
        // TelemetryDeck's /v2/ and /v2/namespace/<name>/, PostHog's /batch/ (VendorEndpoints.swift).
        if segments == ["v2", ""]
            || (segments.count == 4 && segments[0] == "v2" && segments[1] == "namespace"
                && !segments[2].isEmpty && segments[3].isEmpty)
        {
            return only("POST") { receiveSignals(request) }
        }
        if segments == ["batch", ""] || segments == ["batch"] { return only("POST") { receiveCapture(request) } }
        if segments == ["control", "fail-next"] { return only("POST") { controlFailNext(request) } }
        return Self.error(404, "no such resource: \(Text.safe(path))")
    }

    /// The planned failure for this ingestion request, if the fault hook has one.
    func failIfPlanned() -> HTTPResponse? {
        guard let plan = faults.next() else { return nil }
        var headers: [(String, String)] = []
        if plan.status == 429 || plan.status == 503 { headers.append(("Retry-After", String(plan.retryAfter))) }
        return Self.error(plan.status, "failure injected by --fail-next", headers: headers)
    }

    /// `POST /control/fail-next?count=N&status=STATUS[&retry_after=S]`: arms the fault hook.
    func controlFailNext(_ request: ReceivedRequest) -> HTTPResponse {
        let query = request.head.query
        guard var plan = FaultInjection.parse(count: query["count"] ?? "", status: query["status"] ?? "") else {
            return Self.error(400, "expected ?count=N&status=STATUS with STATUS in 100...599")
        }
        if let text = query["retry_after"] {
            guard let seconds = Int(text), seconds >= 0 else { return Self.error(400, "retry_after must be seconds") }
            plan.retryAfter = seconds
        } else {
            plan.retryAfter = configuration.retryAfterSeconds
        }
        faults.set(plan.count > 0 ? plan : nil)
        return .json(200, ["count": JSONValue(plan.count), "status": JSONValue(plan.status)])
    }
}
