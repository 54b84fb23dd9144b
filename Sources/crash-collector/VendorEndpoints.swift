import CrashCollectorParsers
import CrashReportFormat
import CrashReporterHTTP
import CrashReporterSupport
import Foundation
import Tracking

/// Receivers for the two analytics vendors' ingest APIs, so that the TelemetryDeck and PostHog
/// providers can be tried offline (`scripts/demo.sh analytics`): TelemetryDeck's `POST /v2/`
/// (signals) and PostHog's `POST /batch/` (capture). What they accept is stored with the events
/// API's events (`events/events.jsonl`, `GET /api/events`): the signal type or event name as
/// `name`, the hashed user or distinct id as `anonymous_id`, the payload or properties as
/// `properties`. They check the shape the providers rely on, not the vendors' every rule
/// (docs/collector.md).
enum VendorEndpoints {
    /// A string member that is present and not empty.
    static func text(_ value: JSONValue?, _ key: String) -> String? {
        guard case .string(let text)? = value?[key], !text.isEmpty else { return nil }
        return text
    }
}

extension Collector {
    /// `POST /v2/` (or `/v2/namespace/<name>/`): a JSON array of 1–100 TelemetryDeck signals, each
    /// with the strings `appID`, `clientUser` and `type`, and an object `payload` when present.
    func receiveSignals(_ request: ReceivedRequest) -> HTTPResponse {
        if let planned = failIfPlanned() { return planned }
        let batch: [JSONValue]
        switch vendorBatch(request, members: { $0.arrayValue }) {
        case .success(let items): batch = items
        case .failure(let refusal): return refusal.response
        }
        let now = self.now()
        let receivedAt = Timestamp(seconds: now).iso8601
        var accepted: [EventValidation.Accepted] = []
        for (index, signal) in batch.enumerated() {
            guard VendorEndpoints.text(signal, "appID") != nil, let user = VendorEndpoints.text(signal, "clientUser"),
                let type = VendorEndpoints.text(signal, "type")
            else {
                return Self.error(400, "signal \(index) lacks appID, clientUser or type")
            }
            if let payload = signal["payload"], payload.objectValue == nil {
                return Self.error(400, "signal \(index): payload must be an object")
            }
            accepted.append(
                EventValidation.Accepted(
                    eventID: UUIDBytes.random().description, name: type, anonymousID: user, userID: nil,
                    occurredAt: receivedAt, clamped: false, properties: signal["payload"]?.objectValue ?? [:],
                    context: [:]))
        }
        return storeVendorEvents(accepted, receivedAt: receivedAt)
            ?? .json(200, ["accepted": JSONValue(accepted.count)])
    }

    /// `POST /batch/`: PostHog's `{"api_key", "batch": [1–100 events]}`, each event with the
    /// strings `event`, `distinct_id` and `uuid` and an object `properties`. The key must be one
    /// of `--events-write-key` (any non-empty one when none is configured).
    func receiveCapture(_ request: ReceivedRequest) -> HTTPResponse {
        if let planned = failIfPlanned() { return planned }
        var apiKey = ""
        let batch: [JSONValue]
        switch vendorBatch(
            request,
            members: { body in
                apiKey = VendorEndpoints.text(body, "api_key") ?? ""
                return body["batch"]?.arrayValue
            })
        {
        case .success(let items): batch = items
        case .failure(let refusal): return refusal.response
        }
        let keys = configuration.eventsWriteKeys
        guard keys.isEmpty ? !apiKey.isEmpty : keys.contains(apiKey) else {
            return .json(401, ["type": "authentication_error", "detail": "Project API key invalid"])
        }
        let receivedAt = Timestamp(seconds: now()).iso8601
        var accepted: [EventValidation.Accepted] = []
        for (index, event) in batch.enumerated() {
            guard let name = VendorEndpoints.text(event, "event"),
                let distinctID = VendorEndpoints.text(event, "distinct_id"),
                let uuid = VendorEndpoints.text(event, "uuid"), UUIDBytes.isCanonical(uuid.lowercased()),
                let properties = event["properties"]?.objectValue
            else {
                return Self.error(400, "event \(index) lacks event, distinct_id, a uuid or properties")
            }
            accepted.append(
                EventValidation.Accepted(
                    eventID: uuid.lowercased(), name: name, anonymousID: distinctID, userID: nil,
                    occurredAt: VendorEndpoints.text(event, "timestamp") ?? receivedAt, clamped: false,
                    properties: properties, context: [:]))
        }
        return storeVendorEvents(accepted, receivedAt: receivedAt) ?? .json(200, ["status": "Ok"])
    }

    /// The batch of a vendor's request: the body decoded, parsed, `members` of it taken, 1 to
    /// 100 of them; else the answer that says why not.
    private func vendorBatch(
        _ request: ReceivedRequest, members: (JSONValue) -> [JSONValue]?
    ) -> Result<[JSONValue], VendorRefusal> {
        let body: Data
        switch BodyDecoding.decode(request, limit: EventLimits.maxCollectorBodyBytes) {
        case .success(let data): body = data
        case .failure(let failure): return .failure(VendorRefusal(BodyDecoding.response(failure)))
        }
        guard let parsed = try? JSON.parse(body), let batch = members(parsed) else {
            return .failure(VendorRefusal(Self.error(400, "the body is not this API's batch")))
        }
        guard (1...EventLimits.maxBatchEvents).contains(batch.count) else {
            return .failure(VendorRefusal(Self.error(400, "a batch holds 1 to 100 events, not \(batch.count)")))
        }
        return .success(batch)
    }

    /// Stores accepted events; nil when stored, else the 500 that says it could not.
    private func storeVendorEvents(_ accepted: [EventValidation.Accepted], receivedAt: String) -> HTTPResponse? {
        do {
            try events.append(accepted, receivedAt: receivedAt)
            return nil
        } catch {
            Log.error("cannot store events: \(error)")
            return Self.error(500, "cannot store the events")
        }
    }
}

/// A refusal of a vendor's batch, as the answer to send.
struct VendorRefusal: Error {
    var response: HTTPResponse
    init(_ response: HTTPResponse) { self.response = response }
}
