import CrashCollectorParsers
import CrashReportFormat
import CrashReporterHTTP
import CrashReporterSupport

/// `GET /[?app=APP&version=VERSION&range=24h|14d]`: one row per crash group, newest activity
/// first, then analytics event counts by name over the same span.
extension Collector {
    func indexPage(query: [String: String]) -> HTTPResponse {
        let filter = IndexPage.Filter(
            app: query["app"].flatMap { $0.isEmpty ? nil : $0 },
            version: query["version"].flatMap { $0.isEmpty ? nil : $0 })
        let range = query["range"].flatMap(ActivityWindow.Range.init(rawValue:)) ?? .day
        let page = IndexPage(
            summaries: reports.all(), filter: filter, window: ActivityWindow(range: range, now: now()),
            events: events.hourlyCounts, sentryEvents: sentryEvents.storedCount, otlpRecords: otlpLogs.storedCount)
        return .html(200, page.render())
    }
}

struct IndexPage {
    struct Filter: Equatable {
        var app: String?
        var version: String?

        func keeps(_ summary: ReportSummary) -> Bool {
            (app == nil || summary.app == app) && (version == nil || summary.version == version)
        }
    }

    var summaries: [ReportSummary]
    var filter = Filter()
    var window: ActivityWindow
    /// Analytics events by name, then by Unix hour.
    var events: [String: [Int64: Int]] = [:]
    var sentryEvents = 0
    var otlpRecords = 0

    func render() -> String {
        let groups = CrashGroup.groups(of: summaries.filter(filter.keeps))
        var html = "<h1>Crash groups</h1>\n"
        html += filterForm()
        let reportCount = groups.reduce(0) { $0 + $1.count }
        html += "<p class=\"muted\">\(reportCount) reports in \(groups.count) groups, newest activity first. "
        html +=
            "Charts: \(window.range == .day ? "crashes per hour, last 24 hours" : "crashes per day, last 14 days"). "
        html += "<a href=\"/api/groups\">JSON</a></p>\n"
        if groups.isEmpty {
            html += "<p>No reports yet.</p>\n"
        } else {
            html += "<table class=\"groups stack-on-phone\"><thead><tr><th>Group</th><th>Count</th><th>Activity</th>"
            html += "<th>First seen</th><th>Last seen</th><th>Versions</th></tr></thead><tbody>\n"
            for group in groups { html += row(group) }
            html += "</tbody></table>\n"
        }
        html += eventsSection()
        html += "<p class=\"muted\">Sentry events received: \(sentryEvents). OTLP log records received: "
        html += "\(otlpRecords) (<a href=\"/api/logs\">JSON</a>).</p>\n"
        return HTMLPage.document(title: "Crash groups", body: html)
    }

    func row(_ group: CrashGroup) -> String {
        let counts = window.counts(timesMs: group.reports.map(\.timeMs))
        var html = "<tr class=\"group\" data-key=\"\(group.key)\"><td data-label=\"Group\">"
        html += HTMLPage.kindBadge(group.kind) + " "
        html += "<a class=\"group-title\" href=\"/groups/\(group.key)\">\(HTMLPage.escape(group.title))</a>"
        html += "<div class=\"muted\">\(HTMLPage.escape(group.apps.joined(separator: ", ")))</div></td>"
        html += "<td class=\"count\" data-label=\"Count\">\(group.count)</td>"
        html += "<td data-label=\"Activity\">"
        html += ActivityChart.svg(counts: counts, window: window, label: "\(group.title): activity") + "</td>"
        html += "<td data-label=\"First seen\">\(HTMLPage.time(group.firstSeen?.time ?? ""))</td>"
        html += "<td data-label=\"Last seen\">\(HTMLPage.time(group.lastSeen?.time ?? ""))</td>"
        html += "<td data-label=\"Versions\">"
        html += HTMLPage.escape(group.versionCounts.map(\.version).joined(separator: ", ")) + "</td></tr>\n"
        return html
    }

    /// Choices of app and version from every stored report, and the chart's span.
    func filterForm() -> String {
        func select(_ name: String, _ label: String, _ values: [String], _ chosen: String?, all: Bool = true) -> String
        {
            var html = "<label>\(label)<br><select name=\"\(name)\">"
            if all { html += "<option value=\"\">all</option>" }
            for value in values {
                let selected = value == chosen ? " selected" : ""
                html += "<option value=\"\(HTMLPage.escape(value))\"\(selected)>\(HTMLPage.escape(value))</option>"
            }
            return html + "</select></label>"
        }
        var html = "<form class=\"filter\" method=\"get\" action=\"/\">"
        html += select("app", "App", Set(summaries.map(\.app)).sorted(), filter.app)
        html += select("version", "Version", Set(summaries.map(\.version)).sorted(), filter.version)
        html += select(
            "range", "Span", ActivityWindow.Range.allCases.map(\.rawValue), window.range.rawValue, all: false)
        html += "<button type=\"submit\">Show</button></form>\n"
        return html
    }

    func eventsSection() -> String {
        var html = "<h2>Analytics events</h2>\n"
        guard !events.isEmpty else { return html + "<p>No events yet.</p>\n" }
        html += "<table class=\"events stack-on-phone\"><thead><tr><th>Name</th><th>Count</th><th>Over time</th>"
        html += "</tr></thead><tbody>\n"
        let totals = events.mapValues { $0.values.reduce(0, +) }
        for (name, total) in totals.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
            let counts = window.counts(hourly: events[name] ?? [:])
            html += "<tr><td data-label=\"Name\"><code>\(HTMLPage.escape(name))</code></td>"
            html += "<td class=\"count\" data-label=\"Count\">\(total)</td><td data-label=\"Over time\">"
            html += ActivityChart.svg(counts: counts, window: window, label: "\(name): events") + "</td></tr>\n"
        }
        return html + "</tbody></table>\n"
    }
}
