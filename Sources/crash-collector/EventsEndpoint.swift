import CrashCollectorParsers
import CrashReportFormat
import CrashReporterHTTP
import CrashReporterSupport
import Foundation
import Tracking

/// The analytics events API, `POST /v1/events` (docs/events-api.md).
enum EventsEndpoint {
    /// `{"code": ..., "message": ...}`, the events API's error shape (docs/events-api.md §4.3).
    static func error(_ status: Int, code: String, message: String, headers: [(String, String)] = []) -> HTTPResponse {
        .json(status, ["code": .string(code), "message": .string(Text.safe(message))], headers: headers)
    }
}

extension Collector {
    func receiveEvents(_ request: ReceivedRequest) -> HTTPResponse {
        let key = request.headers["X-Write-Key"] ?? ""
        let keyValid =
            configuration.eventsWriteKeys.isEmpty ? !key.isEmpty : configuration.eventsWriteKeys.contains(key)
        guard keyValid else {
            return EventsEndpoint.error(
                401, code: "invalid_write_key", message: "Missing, unknown or revoked write key")
        }
        if let plan = faults.next() {
            var headers: [(String, String)] = []
            if plan.status == 429 || plan.status == 503 { headers.append(("Retry-After", String(plan.retryAfter))) }
            let code = plan.status == 429 ? "rate_limited" : plan.status >= 500 ? "server_error" : "invalid_body"
            return EventsEndpoint.error(
                plan.status, code: code, message: "failure injected by --fail-next", headers: headers)
        }
        let body: Data
        switch BodyDecoding.decode(request, limit: EventLimits.maxCollectorBodyBytes) {
        case .success(let data): body = data
        case .failure(let failure): return BodyDecoding.response(failure, events: true)
        }
        guard case .array(let batch)? = (try? JSON.parse(body))?["events"] else {
            return EventsEndpoint.error(400, code: "invalid_body", message: "The body must be {\"events\": [...]}")
        }
        guard (1...EventLimits.maxBatchEvents).contains(batch.count) else {
            return EventsEndpoint.error(
                400, code: "invalid_body", message: "A batch holds 1 to 100 events, not \(batch.count)")
        }

        // Rate limits come before anything is stored: a 429 stores nothing.
        let now = self.now()
        var perInstall: [String: Int] = [:]
        for event in batch {
            if case .string(let id)? = event["anonymous_id"] { perInstall[id, default: 0] += 1 }
        }
        let wait = limiters.withLock { limiters -> Double in
            var probeKey = limiters.perKey
            var probeInstall = limiters.perInstall
            let waitKey = probeKey.take([key: batch.count], now: now)
            let waitInstall = probeInstall.take(perInstall, now: now)
            let wait = max(waitKey, waitInstall)
            if wait == 0 { limiters = (probeKey, probeInstall) }
            return wait
        }
        if wait > 0 {
            return EventsEndpoint.error(
                429, code: "rate_limited", message: "Rate limit exceeded; nothing in the request was stored",
                headers: [("Retry-After", String(Int(wait.rounded(.up))))])
        }

        var accepted: [EventValidation.Accepted] = []
        var rejected: [JSONValue] = []
        var clamped: [JSONValue] = []
        for (index, event) in batch.enumerated() {
            let rawID = event["event_id"].flatMap(\.stringValue)
            switch EventValidation.validate(event, now: now) {
            case .success(let event):
                accepted.append(event)
                if event.clamped { clamped.append(["index": JSONValue(index), "event_id": JSONValue(rawID)]) }
            case .failure(let rejection):
                rejected.append(
                    [
                        "index": JSONValue(index), "event_id": JSONValue(rawID),
                        "code": .string(rejection.code.rawValue),
                        "message": .string(rejection.message),
                    ])
            }
        }
        do {
            try events.append(accepted, receivedAt: Timestamp(seconds: now).iso8601)
        } catch {
            Log.error("cannot store events: \(error)")
            return EventsEndpoint.error(500, code: "server_error", message: "cannot store the events")
        }
        return .json(
            200, ["accepted": JSONValue(accepted.count), "rejected": .array(rejected), "clamped": .array(clamped)])
    }

    /// `GET /api/events`: stored analytics events by name.
    func eventCounts() -> HTTPResponse {
        let counts = events.counts
        return .json(
            200,
            [
                "total": JSONValue(counts.values.reduce(0, +)),
                "by_name": .object(counts.mapValues { JSONValue($0) }),
                "sentry_events": JSONValue(sentryEvents.storedCount),
            ])
    }
}
