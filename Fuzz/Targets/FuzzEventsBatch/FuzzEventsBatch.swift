import CrashCollectorParsers
import CrashReporterSupport
import Tracking

/// The events API's body: JSON, the `events` array, each event through the collector's rules
/// (a body that is not `{"events": [...]}` is validated as one event).
///
/// Properties: nothing crashes; an accepted event, rebuilt from what was accepted, is accepted
/// again with the same fields (validation is stable on its own output), and its `occurred_at`
/// is no longer out of range.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEventsBatch(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let body = try? JSON.parse(UnsafeBufferPointer(start: data, count: size)) else { return 0 }
    let now = 1_792_756_800.0  // 2026-10-23T12:00:00Z, as in EventValidationTests
    let events: [JSONValue]
    if case .array(let batch)? = body["events"] { events = batch } else { events = [body] }
    for event in events {
        guard case .success(let accepted) = EventValidation.validate(event, now: now) else { continue }
        var rebuilt: [String: JSONValue] = [
            "name": .string(accepted.name), "event_id": .string(accepted.eventID),
            "anonymous_id": .string(accepted.anonymousID), "occurred_at": .string(accepted.occurredAt),
            "properties": .object(accepted.properties), "context": .object(accepted.context),
        ]
        if let user = accepted.userID { rebuilt["user_id"] = .string(user) }
        // The rebuilt event may be a few bytes longer (a clamped time has milliseconds).
        guard JSON.serialize(.object(rebuilt)).count <= EventLimits.maxEventBytes else { continue }
        switch EventValidation.validate(.object(rebuilt), now: now) {
        case .success(let again):
            precondition(!again.clamped, "an accepted event's time is still out of range")
            var expected = accepted
            expected.clamped = false
            precondition(again == expected, "an accepted event changed when validated again")
        case .failure(let rejection):
            fatalError("an accepted event is rejected when validated again: \(rejection)")
        }
    }
    return 0
}
