import Foundation
import Testing

@testable import CrashCollectorParsers
@testable import crash_collector

/// What the collector reads itself around an envelope (the envelope is `SentryEnvelopeParser`'s,
/// tested in SentryEnvelopeParserTests): the auth header's key and the event id that names the file.
@Suite struct SentryAuthTests {
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
        #expect(SentryEventID.normalized("9EC79C33-EC99-42AB-8353-589FCB2E04DC") == "9ec79c33ec9942ab8353589fcb2e04dc")
        #expect(SentryEventID.normalized("9ec79c33ec9942ab8353589fcb2e04dc") == "9ec79c33ec9942ab8353589fcb2e04dc")
        #expect(SentryEventID.normalized("9ec79c33-ec9942ab8353589fcb2e04dc") == nil)
        #expect(SentryEventID.normalized("../../etc/passwd") == nil)
        #expect(SentryEventID.normalized("") == nil)
        #expect(SentryEventID.normalized(nil) == nil)
    }
}
