/// `GET /`: crash groups with their reports one click away, and analytics event counts.
extension Collector {
    func indexPage() -> HTTPResponse {
        let groups = CrashGroup.groups(of: reports.all())
        // Each group's newest report, symbolicated once and then kept (see SymbolicatedViews).
        var crashedIn: [String: String] = [:]
        for group in groups {
            guard let newest = group.reports.first else { continue }
            crashedIn[group.signature] = views.view(id: newest.id, load: { reports.report(id: newest.id) })?.crashedIn
        }
        return .html(
            200,
            IndexPage.render(
                groups: groups, crashedIn: crashedIn, eventCounts: events.counts,
                sentryEvents: sentryEvents.storedCount))
    }
}

enum IndexPage {
    /// Reports listed under one group; the rest are counted.
    static let reportsPerGroup = 20

    /// `crashedIn`: by signature, the function the group's newest report crashed in, where the
    /// collector could symbolicate it.
    static func render(
        groups: [CrashGroup], crashedIn: [String: String] = [:], eventCounts: [String: Int], sentryEvents: Int
    ) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>crash-collector</title>
            <style>
            body{font-family:system-ui,sans-serif;margin:2em;color:#222}
            table{border-collapse:collapse;margin-bottom:2em}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}
            code{font-size:.9em}
            </style></head><body>
            <h1>crash-collector</h1>

            """
        let reportCount = groups.reduce(0) { $0 + $1.count }
        html += "<h2>Report groups</h2>\n<p>\(reportCount) reports in \(groups.count) groups. "
        html += "<a href=\"/api/reports\">JSON</a></p>\n"
        if groups.isEmpty {
            html += "<p>No reports yet.</p>\n"
        } else {
            html += "<table><tr><th>Kind</th><th>Signature</th><th>Crashed in</th><th>App</th><th>Count</th>"
            html += "<th>First seen</th><th>Last seen</th><th>Versions</th><th>Reports</th></tr>\n"
            for group in groups {
                html += "<tr><td>\(escape(group.kind))</td><td><code>\(escape(group.signature))</code></td>"
                html += "<td><code>\(escape(crashedIn[group.signature] ?? ""))</code></td>"
                html += "<td>\(escape(group.apps.joined(separator: ", ")))</td>"
                html += "<td>\(group.count)</td>"
                html += "<td>\(escape(group.firstSeen?.time ?? ""))</td><td>\(escape(group.lastSeen?.time ?? ""))</td>"
                html += "<td>\(escape(group.versions.joined(separator: ", ")))</td><td>"
                for report in group.reports.prefix(reportsPerGroup) {
                    let id = escape(report.id)
                    html += "<a href=\"/reports/\(id)\">\(escape(report.time))</a> "
                    html += "(<a href=\"/reports/\(id)?format=json\">json</a>)<br>"
                }
                if group.count > reportsPerGroup { html += "and \(group.count - reportsPerGroup) more" }
                html += "</td></tr>\n"
            }
            html += "</table>\n"
        }
        html += "<h2>Analytics events</h2>\n"
        if eventCounts.isEmpty {
            html += "<p>No events yet.</p>\n"
        } else {
            html += "<table><tr><th>Name</th><th>Count</th></tr>\n"
            for (name, count) in eventCounts.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
                html += "<tr><td><code>\(escape(name))</code></td><td>\(count)</td></tr>\n"
            }
            html += "</table>\n"
        }
        html += "<p>Sentry events received: \(sentryEvents).</p>\n</body></html>\n"
        return html
    }

    /// Text made safe for HTML element content and quoted attribute values.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
