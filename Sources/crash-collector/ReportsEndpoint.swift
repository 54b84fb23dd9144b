import CrashCollectorParsers
import CrashReportFormat
import CrashReporterHTTP
import CrashReporterSupport
import Foundation

/// The plain transport: `POST /api/reports` with the report file as written, and the views of
/// what is stored.
extension Collector {
    func uploadReport(_ request: ReceivedRequest, body: Data) -> HTTPResponse {
        let claimed = request.headers["X-Crash-Report-ID"]
        if let claimed, !UUIDBytes.isCanonical(claimed) {
            return rejected("X-Crash-Report-ID is not a UUID")
        }
        let report: CrashReport
        do {
            report = try ReportDecoding.decode(gzipData: body)
        } catch {
            return rejected(error.description)
        }
        guard UUIDBytes.isCanonical(report.reportID) else { return rejected("report_id is not a UUID") }
        if let claimed, claimed.lowercased() != report.reportID.lowercased() {
            return rejected("X-Crash-Report-ID \(claimed) does not match the report's report_id \(report.reportID)")
        }
        do {
            switch try reports.store(body, report: report) {
            case .stored(let id):
                Log.info("stored report \(id)")
                return .json(201, ["status": "stored", "id": .string(id)], headers: [("Location", "/reports/\(id)")])
            case .duplicate(let id):
                return .json(200, ["status": "duplicate", "id": .string(id)])
            }
        } catch {
            Log.error("cannot store report \(report.reportID): \(error)")
            return Self.error(500, "cannot store the report")
        }
    }

    private func rejected(_ reason: String) -> HTTPResponse {
        .json(400, ["status": "rejected", "error": .string(Text.safe(reason))])
    }

    /// `GET /api/reports`: every stored report, newest first.
    func listReports() -> HTTPResponse {
        .json(200, .array(reports.all().map(\.json)))
    }

    /// `GET /api/groups`: crash groups, the one with the newest report first.
    func listGroups() -> HTTPResponse {
        let groups = CrashGroup.groups(of: reports.all()).map { group -> JSONValue in
            [
                "kind": .string(group.kind), "key": .string(group.key), "title": .string(group.title),
                "signature": .string(group.signature), "count": JSONValue(group.count),
                "first_seen": JSONValue(group.firstSeen?.time), "last_seen": JSONValue(group.lastSeen?.time),
                "apps": .array(group.apps.map(JSONValue.string)),
                "versions": .array(group.versions.map(JSONValue.string)),
                "version_counts": .array(
                    group.versionCounts.map { ["version": .string($0.version), "count": JSONValue($0.count)] }),
                "reports": .array(group.reports.map { .string($0.id) }),
            ]
        }
        return .json(200, .array(groups))
    }

    /// `GET /reports/<id>`: the report's page (`ReportPage`), symbolicated where this machine
    /// has the binaries; `?format=text` the crash log as `crashreport show` prints it;
    /// `?format=json` the report as JSON (raw addresses, as stored).
    func showReport(id: String, query: [String: String]) -> HTTPResponse {
        let missing = Self.error(404, "no report \(Text.safe(id))")
        switch query["format"] ?? "html" {
        case "html":
            guard let view = views.view(id: id, load: { reports.report(id: id) }) else { return missing }
            // `?thunks=shown`: the compiler's thunks as frames of their own (the page's toggle).
            let page = ReportPage.Options(
                dependencies: configuration.dependencyPaths, showsThunks: query["thunks"] == "shown")
            return .html(200, ReportPage.render(view.report, symbolication: view.symbolication, options: page))
        case "text":
            guard let view = views.view(id: id, load: { reports.report(id: id) }) else { return missing }
            return .text(200, view.text)
        case "json":
            guard let report = reports.report(id: id) else { return missing }
            guard let data = try? Data(JSONRenderer().data(for: report)) else {
                return Self.error(500, "cannot encode the report as JSON")
            }
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: data)
        default:
            return Self.error(400, "format must be html, text or json")
        }
    }
}
