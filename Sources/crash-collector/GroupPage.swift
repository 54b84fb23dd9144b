import CrashCollectorParsers
import CrashReportFormat
import CrashReporterHTTP
import CrashReporterSupport

/// `GET /groups/<key>[?range=24h|14d]`: one crash group: its title and signature, the chart,
/// its versions with their counts, and its reports, newest first.
extension Collector {
    func groupPage(key: String, query: [String: String]) -> HTTPResponse {
        guard let group = CrashGroup.groups(of: reports.all()).first(where: { $0.key == key }) else {
            return Self.error(404, "no group \(Text.safe(key))")
        }
        let range = query["range"].flatMap(ActivityWindow.Range.init(rawValue:)) ?? .day
        return .html(200, GroupPage.render(group, window: ActivityWindow(range: range, now: now())))
    }
}

enum GroupPage {
    static func render(_ group: CrashGroup, window: ActivityWindow) -> String {
        var html = "<h1>\(HTMLPage.kindBadge(group.kind)) <span class=\"group-title\">"
        html += "\(HTMLPage.escape(group.title))</span></h1>\n"
        html += "<p><code>\(HTMLPage.escape(group.signature))</code></p>\n"
        html += "<p><strong class=\"count\">\(group.count)</strong> reports from "
        html += "\(HTMLPage.escape(group.apps.joined(separator: ", "))), first seen "
        html +=
            "\(HTMLPage.time(group.firstSeen?.time ?? "")), last seen \(HTMLPage.time(group.lastSeen?.time ?? "")).</p>\n"
        let other = window.range == .day ? ActivityWindow.Range.fortnight : .day
        html += "<h2>\(window.range == .day ? "Per hour, last 24 hours" : "Per day, last 14 days")</h2>\n"
        html += ActivityChart.svg(
            counts: window.counts(timesMs: group.reports.map(\.timeMs)), window: window, barWidth: 11, height: 80,
            label: "\(group.title): activity")
        html += "<p class=\"muted\"><a href=\"?range=\(other.rawValue)\">Show \(other.rawValue)</a></p>\n"
        html += "<h2>Versions</h2>\n<table class=\"versions\"><thead><tr><th>Version</th><th>Reports</th></tr></thead>"
        html += "<tbody>\n"
        for (version, count) in group.versionCounts {
            html += "<tr><td>\(HTMLPage.escape(version.isEmpty ? "?" : version))</td><td>\(count)</td></tr>\n"
        }
        html += "</tbody></table>\n<h2>Reports</h2>\n"
        html += "<table class=\"reports stack-on-phone\"><thead><tr><th>Time</th><th>App</th><th>Version</th>"
        html += "<th>Report</th></tr></thead><tbody>\n"
        for report in group.reports {
            let id = HTMLPage.escape(report.id)
            html += "<tr><td data-label=\"Time\">\(HTMLPage.time(report.time))</td>"
            html += "<td data-label=\"App\">\(HTMLPage.escape(report.app))</td>"
            html += "<td data-label=\"Version\">\(HTMLPage.escape(report.version))</td>"
            html += "<td data-label=\"Report\"><a href=\"/reports/\(id)\" class=\"mono\">\(id)</a></td></tr>\n"
        }
        html += "</tbody></table>\n"
        return HTMLPage.document(title: group.title, body: html)
    }
}
