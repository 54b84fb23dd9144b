import Foundation
import Testing

@testable import crash_collector

@Suite struct SentryEnvelopeTests {
    @Test func itemsWithAndWithoutLength() throws {
        let event = #"{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc","level":"fatal"}"#
        let text =
            #"{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc","dsn":"https://k@sentry.io/1"}"# + "\n"
            + #"{"type":"attachment","length":10,"filename":"a.txt"}"# + "\n" + "line1\nline" + "\n"
            + #"{"type":"event"}"# + "\n" + event + "\n"
            + #"{"type":"session","length":2}"# + "\n" + "{}"
        let envelope = try SentryEnvelope.parse(Data(text.utf8))
        #expect(envelope.items.map(\.type) == ["attachment", "event", "session"])
        #expect(String(decoding: envelope.items[0].payload, as: UTF8.self) == "line1\nline")
        #expect(String(decoding: envelope.items[1].payload, as: UTF8.self) == event)
        #expect(envelope.header["event_id"] == "9ec79c33ec9942ab8353589fcb2e04dc")
    }

    @Test func headerOnlyAndTrailingNewlines() throws {
        #expect(try SentryEnvelope.parse(Data("{}".utf8)).items.isEmpty)
        #expect(try SentryEnvelope.parse(Data("{}\n".utf8)).items.isEmpty)
        let one = try SentryEnvelope.parse(Data("{}\n{\"type\":\"event\",\"length\":2}\n{}\n\n".utf8))
        #expect(one.items.count == 1)
    }

    @Test(arguments: [
        "", "not json\n", "[]\n", "{}\nnot json\n{}\n", "{}\n{\"length\":2}\n{}\n",
        "{}\n{\"type\":\"event\",\"length\":50}\n{}\n", "{}\n{\"type\":\"event\",\"length\":1}\n{}\n",
        "{}\n{\"type\":\"event\",\"length\":-1}\n{}\n", "{}\n{\"type\":\"event\",\"length\":\"2\"}\n{}\n",
        "{}\n\n{\"type\":\"event\"}\n{}\n",
    ])
    func badEnvelopesAreRefused(_ text: String) {
        #expect(throws: SentryEnvelope.ParseError.self) { try SentryEnvelope.parse(Data(text.utf8)) }
    }

    @Test func authKeyFromHeaderOrQuery() {
        #expect(
            SentryAuth.key(
                header: "Sentry sentry_version=7, sentry_client=x/1.0, sentry_key=abc123, sentry_secret=s", query: [:])
                == "abc123")
        #expect(SentryAuth.key(header: "sentry_key=k2,sentry_version=7", query: [:]) == "k2")
        #expect(SentryAuth.key(header: nil, query: ["sentry_key": "q"]) == "q")
        #expect(SentryAuth.key(header: "Sentry sentry_version=7", query: [:]) == nil)
    }

    @Test func eventIDs() {
        #expect(
            SentryEnvelope.normalizedEventID("9EC79C33-EC99-42AB-8353-589FCB2E04DC")
                == "9ec79c33ec9942ab8353589fcb2e04dc")
        #expect(
            SentryEnvelope.normalizedEventID("9ec79c33ec9942ab8353589fcb2e04dc") == "9ec79c33ec9942ab8353589fcb2e04dc")
        #expect(SentryEnvelope.normalizedEventID("9ec79c33-ec9942ab8353589fcb2e04dc") == nil)
        #expect(SentryEnvelope.normalizedEventID("../../etc/passwd") == nil)
        #expect(SentryEnvelope.normalizedEventID(nil) == nil)
    }
}
