import Foundation
import Testing

@testable import crash_collector

/// `GET /`: groups, counts, links, and escaping.
@Suite struct IndexPageTests {
    @Test func pageShowsGroupsAndEscapesAHostileAppName() throws {
        let collector = try CollectorProcess()
        defer { collector.stop() }
        let hostile = #"<script>alert("pwned")</script>&'"#
        let (hostileID, hostileReport) = try Fixtures.variant(app: hostile, version: "6.6.6")
        let (plainID, plainReport) = try Fixtures.variant(version: "2.0.0")
        for (id, report) in [(hostileID, hostileReport), (plainID, plainReport)] {
            #expect(
                try collector.request("POST", "/api/reports", headers: [("X-Crash-Report-ID", id)], body: report).status
                    == 201)
        }
        let events =
            #"{"events":[{"event_id":"\#(UUID().uuidString)","name":"app_opened","anonymous_id":"a","occurred_at":"\#(ISO8601DateFormatter().string(from: Date()))"}]}"#
        #expect(
            try collector.request("POST", "/v1/events", headers: [("X-Write-Key", "k")], body: Data(events.utf8)).status
                == 200)

        let page = try collector.request("GET", "/")
        #expect(page.status == 200)
        #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
        let html = page.text
        #expect(!html.contains("<script>"))
        #expect(html.contains("&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;&amp;&#39;"))
        // Both reports crash the same way: one group of two, with both versions, its title
        // linking to the group's page, which lists both reports.
        let group = try #require(try ReportSummaryProbe.groups(collector).first)
        let key = try #require(group["key"] as? String)
        let title = try #require(group["title"] as? String)
        #expect(html.contains("<a class=\"group-title\" href=\"/groups/\(key)\">\(HTMLPage.escape(title))</a>"))
        #expect(html.contains("<td class=\"count\" data-label=\"Count\">2</td>"))
        #expect(html.contains("2.0.0, 6.6.6") || html.contains("6.6.6, 2.0.0"))
        #expect(html.contains("<code>app_opened</code></td><td class=\"count\" data-label=\"Count\">1</td>"))
        // The filter keeps one version's reports.
        let filtered = try collector.request("GET", "/?version=2.0.0").text
        #expect(filtered.contains("<td class=\"count\" data-label=\"Count\">1</td>"))
        #expect(filtered.contains("<option value=\"2.0.0\" selected>2.0.0</option>"))

        let groupPage = try collector.request("GET", "/groups/\(key)")
        #expect(groupPage.status == 200)
        #expect(groupPage.text.contains("href=\"/reports/\(hostileID)\""))
        #expect(groupPage.text.contains("href=\"/reports/\(plainID)\""))
        #expect(groupPage.text.contains("<code>\(HTMLPage.escape(group["signature"] as? String ?? "-"))</code>"))
        #expect(try collector.request("GET", "/groups/0000000000000000").status == 404)
        #expect(try collector.request("GET", "/reports/\(plainID)").status == 200)
    }

    @Test func escapeCoversEverySpecialCharacter() {
        #expect(HTMLPage.escape(#"a<b>c&d"e'f"#) == "a&lt;b&gt;c&amp;d&quot;e&#39;f")
        let window = ActivityWindow(range: .day, now: 7200)
        let page = IndexPage(summaries: [], window: window, events: ["<i>": [1: 2]]).render()
        #expect(page.contains("&lt;i&gt;"))
        #expect(!page.contains("<i>"))
    }
}

enum ReportSummaryProbe {
    static func signature(_ collector: CollectorProcess) throws -> String? {
        let list =
            try JSONSerialization.jsonObject(with: collector.request("GET", "/api/reports").body) as? [[String: Any]]
        return list?.first?["signature"] as? String
    }

    static func groups(_ collector: CollectorProcess) throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: collector.request("GET", "/api/groups").body) as? [[String: Any]] ?? []
    }
}
