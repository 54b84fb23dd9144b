import CrashReporterSupport
import Foundation
import Testing

@testable import CrashCollectorParsers
@testable import crash_collector

@Suite("Sentry envelope parser")
struct SentryEnvelopeParserTests {
    static func parse(_ text: String) throws -> (header: [String: JSONValue], items: [SentryEnvelopeParser.Item]) {
        try SentryEnvelopeParser.parse(Data(text.utf8))
    }

    @Test("items with and without length, with or without the final newline")
    func wellFormed() throws {
        let text =
            "{\"event_id\":\"9ec79c33ec9942ab8353589fcb2e04dc\"}\n"
            + "{\"type\":\"attachment\",\"length\":10}\nhello\nworl\n"
            + "{\"type\":\"event\"}\n{\"message\":\"hi\"}\n"
            + "{\"type\":\"attachment\",\"length\":0}\n\n"
            + "{\"type\":\"session\"}\n{}"
        let envelope = try Self.parse(text)
        #expect(envelope.header["event_id"]?.stringValue == "9ec79c33ec9942ab8353589fcb2e04dc")
        #expect(
            envelope.items.map { $0.header["type"]?.stringValue } == ["attachment", "event", "attachment", "session"])
        #expect(
            envelope.items.map { String(decoding: $0.payload, as: UTF8.self) } == [
                "hello\nworl", "{\"message\":\"hi\"}", "", "{}",
            ])
        #expect(try Self.parse(text + "\n").items.count == 4)
        #expect(try Self.parse("{}").items.isEmpty)
        #expect(try Self.parse("{}\n").items.isEmpty)
    }

    @Test(
        "malformed envelopes are refused with a clear error",
        arguments: [
            ("", SentryEnvelopeParser.EnvelopeParseError.empty),
            ("not json\n", .invalidHeader("not JSON")),
            ("[1]\n", .invalidHeader("not an object")),
            ("{}\nnope\n{}", .invalidItemHeader(index: 0, reason: "not JSON")),
            ("{}\n\n", .invalidItemHeader(index: 0, reason: "empty line")),
            ("{}\n{\"length\":2}\nab", .missingItemType(index: 0)),
            ("{}\n{\"type\":\"event\",\"length\":-1}\n", .invalidLength(index: 0)),
            ("{}\n{\"type\":\"event\",\"length\":\"2\"}\nab", .invalidLength(index: 0)),
            ("{}\n{\"type\":\"event\",\"length\":1.5}\nab", .invalidLength(index: 0)),
            ("{}\n{\"type\":\"event\",\"length\":true}\nab", .invalidLength(index: 0)),
            ("{}\n{\"type\":\"event\",\"length\":50}\nshort\n", .truncatedPayload(index: 0, length: 50, available: 6)),
            ("{}\n{\"type\":\"event\",\"length\":2}\nabc\n", .missingNewline(index: 0)),
            ("{}\n{\"type\":\"event\"}\n{}\n{\"type\":1}\n", .missingItemType(index: 1)),
        ])
    func malformed(text: String, error: SentryEnvelopeParser.EnvelopeParseError) {
        #expect(throws: error) { try Self.parse(text) }
        #expect(!error.description.isEmpty && !error.description.contains("\n"))
    }
}
