import CCrashReporter
import CrashReporter
import CrashReporterLogging
import Foundation
import Logging
import TestSupport
import Testing

/// Log lines in the crash ring: the only suite of this target that touches the C ring, which it
/// configures itself (no `start`, no handler installed).
@Suite("swift-log lines as breadcrumbs", .serialized)
struct BreadcrumbLogHandlerTests {
    /// A fresh ring, enabled, and its breadcrumbs after `body` as the crash handler writes them.
    func crumbs(_ body: () -> Void) throws -> [[String: Any]] {
        scr_set_capture_enabled(1)
        try #require(scr_breadcrumbs_configure(32) == 0)
        body()
        var buffer = [CChar](repeating: 0, count: 64 * 1024)
        try #require(scr_breadcrumbs_write_json(&buffer, buffer.count) > 0)
        let json = Data(buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        return try #require(object["items"] as? [[String: Any]])
    }

    func logger(_ label: String, level: Logger.Level = .info, extra: (any LogHandler)? = nil) -> Logger {
        let breadcrumbs = BreadcrumbLogHandler(label: label, level: level, metadataProvider: nil)
        return Logger(label: label) { _ -> any LogHandler in
            guard let extra else { return breadcrumbs }
            return MultiplexLogHandler([extra, breadcrumbs])
        }
    }

    @Test("each level maps to a breadcrumb level; the label is the category")
    func levelsAndCategory() throws {
        let items = try crumbs {
            var log = logger("orders.http", level: .trace)
            log.logLevel = .trace
            for level in Logger.Level.allCases { log.log(level: level, "at \(level.rawValue)") }
        }
        #expect(items.map { $0["message"] as? String } == Logger.Level.allCases.map { "at \($0.rawValue)" })
        #expect(
            items.map { $0["level"] as? String } == ["debug", "debug", "info", "info", "warning", "error", "fatal"])
        #expect(items.allSatisfy { $0["category"] as? String == "orders.http" })
    }

    @Test("below the handler's level nothing is recorded; the service's own handler still gets it")
    func levelThreshold() throws {
        let recorder = RecordingLogHandler()
        let items = try crumbs {
            var log = logger("svc", extra: recorder)
            log.logLevel = .debug
            // Multiplexing sets every handler's level: the breadcrumb handler follows it.
            log.debug("a debug line")
            let quiet = logger("svc", level: .info, extra: nil)
            quiet.debug("not a breadcrumb")
            quiet.info("a breadcrumb")
        }
        #expect(items.map { $0["message"] as? String } == ["a debug line", "a breadcrumb"])
        #expect(recorder.lines == ["a debug line"])
    }

    @Test("the message and the metadata values are scrubbed")
    func scrubbed() throws {
        let items = try crumbs {
            logger("svc").info("charged bob@example.org from 10.1.2.3", metadata: ["card": "4111 1111 1111 1111"])
        }
        let item = try #require(items.first)
        let message = try #require(item["message"] as? String)
        #expect(!message.contains("bob@example.org") && !message.contains("10.1.2.3"))
        #expect(message.contains("[redacted]"))
        let data = try #require(item["data"] as? [String: String])
        #expect(data["card"] == "[redacted]")
    }

    @Test("at most four metadata pairs: the call site's, then the provider's, then the handler's")
    func metadataBound() throws {
        let provider = Logger.MetadataProvider { ["request": "r-7", "shared": "from-provider"] }
        let items = try crumbs {
            var handler = BreadcrumbLogHandler(label: "svc", metadataProvider: provider)
            handler.metadata = ["shared": "from-handler", "region": "eu", "build": "42"]
            let log = Logger(label: "svc") { _ in handler }
            log.info("one", metadata: ["shared": "from-call"])
            log.info("two", metadata: ["a": "1", "b": "2", "c": "3", "d": "4", "e": "5"])
        }
        try #require(items.count == 2)
        let first = try #require(items[0]["data"] as? [String: String])
        #expect(first["shared"] == "from-call")
        #expect(first["request"] == "r-7")
        #expect(first.count == 4)
        #expect(Set(first.keys).isSubset(of: ["shared", "request", "region", "build"]))
        let second = try #require(items[1]["data"] as? [String: String])
        #expect(second.count == 4)
        #expect(Set(second.keys).isSubset(of: ["a", "b", "c", "d", "e"]))
    }

    @Test("with capture off (before start, after an opt-out) nothing is recorded")
    func offDoesNothing() throws {
        scr_set_capture_enabled(1)
        try #require(scr_breadcrumbs_configure(32) == 0)
        scr_set_capture_enabled(0)
        #expect(!Breadcrumbs.isRecording)
        logger("svc").error("dropped")
        scr_set_capture_enabled(1)
        var buffer = [CChar](repeating: 0, count: 64 * 1024)
        #expect(scr_breadcrumbs_write_json(&buffer, buffer.count) > 0)
        let json = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(!json.contains("dropped"))
    }
}

/// A handler that keeps the messages it gets.
final class RecordingLogHandler: LogHandler, @unchecked Sendable {
    // @unchecked: the tests log from one thread.
    var lines: [String] = []
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) { lines.append(event.message.description) }
}
