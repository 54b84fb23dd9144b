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
        // Both reports crash the same way: one group of two, with both versions.
        let signature = try #require(try ReportSummaryProbe.signature(collector))
        #expect(html.contains("<code>\(IndexPage.escape(signature))</code>"))
        #expect(html.contains("<td>2</td>"))
        #expect(html.contains("2.0.0, 6.6.6"))
        #expect(html.contains("href=\"/reports/\(hostileID)\""))
        #expect(html.contains("href=\"/reports/\(plainID)\""))
        #expect(html.contains("<code>app_opened</code></td><td>1</td>"))
        #expect(try collector.request("GET", "/reports/\(plainID)").status == 200)
    }

    @Test func escapeCoversEverySpecialCharacter() {
        #expect(IndexPage.escape(#"a<b>c&d"e'f"#) == "a&lt;b&gt;c&amp;d&quot;e&#39;f")
        let page = IndexPage.render(groups: [], eventCounts: ["<i>": 2], sentryEvents: 0)
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
}
