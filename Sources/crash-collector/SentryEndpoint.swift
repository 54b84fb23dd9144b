import CrashCollectorParsers
import CrashReportFormat
import CrashReporterHTTP
import CrashReporterSupport
import Foundation

/// The Sentry transport: `POST /api/<project>/envelope/`.
extension Collector {
    func receiveEnvelope(_ request: ReceivedRequest) -> HTTPResponse {
        if let expected = configuration.sentryKey {
            let key = SentryAuth.key(header: request.headers["X-Sentry-Auth"], query: request.head.query)
            guard key == expected else {
                return sentryError(401, key == nil ? "missing sentry_key (X-Sentry-Auth)" : "invalid sentry_key")
            }
        }
        return withDecodedBody(of: request, receiveEnvelope(body:))
    }

    private func receiveEnvelope(body: Data) -> HTTPResponse {
        let envelope: (header: [String: JSONValue], items: [SentryEnvelopeParser.Item])
        do {
            envelope = try SentryEnvelopeParser.parse(body)
        } catch {
            return sentryError(400, "invalid envelope: \(error)")
        }
        guard envelope.items.count <= Self.maxEnvelopeItems else {
            return sentryError(400, "invalid envelope: more than \(Self.maxEnvelopeItems) items")
        }
        let headerID = envelope.header["event_id"].map { $0.stringValue ?? "" }
        if headerID != nil && SentryEventID.normalized(headerID) == nil {
            return sentryError(400, "invalid envelope: event_id in the header is not a UUID")
        }
        var eventIDs: [String] = []
        var toStore: [(Data, String)] = []
        var sessionsToStore: [(Data, String)] = []
        for (index, item) in envelope.items.enumerated() where item.header["type"]?.stringValue == "session" {
            guard let session = try? JSON.parse(item.payload) else {
                return sentryError(400, "invalid envelope: item \(index): the session is not JSON")
            }
            switch SessionValidation.check(session) {
            case .success(let sid): sessionsToStore.append((item.payload, sid))
            case .failure(let reason): return sentryError(400, "invalid envelope: item \(index): \(reason)")
            }
        }
        for (index, item) in envelope.items.enumerated() where item.header["type"]?.stringValue == "event" {
            guard let event = (try? JSON.parse(item.payload))?.objectValue else {
                return sentryError(400, "invalid envelope: item \(index): the event is not a JSON object")
            }
            let payloadID = event["event_id"].map { $0.stringValue ?? "" }
            guard let id = SentryEventID.normalized(payloadID ?? headerID) else {
                return sentryError(400, "invalid envelope: item \(index): the event has no valid event_id")
            }
            if let payloadID, headerID != nil, SentryEventID.normalized(headerID) != SentryEventID.normalized(payloadID)
            {
                return sentryError(400, "invalid envelope: item \(index): event_id differs from the envelope's")
            }
            toStore.append((item.payload, id))
            eventIDs.append(id)
        }
        do {
            for (payload, id) in toStore {
                if try sentryEvents.store(payload, eventID: id) { Log.info("stored Sentry event \(id)") }
            }
            for (payload, sid) in sessionsToStore {
                if try sentrySessions.store(payload, eventID: sid) { Log.info("stored Sentry session \(sid)") }
            }
        } catch {
            Log.error("cannot store a Sentry event: \(error)")
            return sentryError(500, "cannot store the event")
        }
        let id = eventIDs.first ?? SentryEventID.normalized(headerID)
        return .json(200, ["id": JSONValue(id)])
    }

    /// Items in one envelope, at most (Sentry sends a handful).
    static let maxEnvelopeItems = 1000

    /// Sentry answers errors as `{"detail": reason}`.
    private func sentryError(_ status: Int, _ reason: String) -> HTTPResponse {
        .json(status, ["detail": .string(Text.safe(reason))])
    }
}
