import CrashReporterSupport
import Tracking

/// The events API's rules for one event (docs/events-api.md §3 and §4.2), as a pure function;
/// the limits it checks are `EventLimits`, which the client reads too.
package enum EventValidation {
    package static let contextKeys: Set<String> = [
        "app_version", "build", "os_version", "device_model", "locale", "environment",
    ]
    /// `occurred_at` is accepted from this long before the receive time...
    package static let maxPast: Double = 7 * 24 * 3600
    /// ...to this long after it; outside, it is replaced by the receive time.
    package static let maxFuture: Double = 5 * 60

    package enum Code: String, Sendable, CaseIterable {
        case invalidEvent = "invalid_event"
        case invalidName = "invalid_name"
        case reservedName = "reserved_name"
        case invalidID = "invalid_id"
        case invalidTimestamp = "invalid_timestamp"
        case invalidProperties = "invalid_properties"
        case tooManyProperties = "too_many_properties"
        case eventTooLarge = "event_too_large"
    }

    package struct Rejection: Error, Sendable, Equatable {
        package var code: Code
        package var message: String
    }

    /// An accepted event, as stored.
    package struct Accepted: Sendable, Equatable {
        package var eventID: String
        package var name: String
        package var anonymousID: String
        package var userID: String?
        /// What the client sent, or the receive time when that was out of range.
        package var occurredAt: String
        package var clamped: Bool
        package var properties: [String: JSONValue]
        /// Only the known keys with valid values.
        package var context: [String: JSONValue]

        package init(
            eventID: String, name: String, anonymousID: String, userID: String?, occurredAt: String, clamped: Bool,
            properties: [String: JSONValue], context: [String: JSONValue]
        ) {
            self.eventID = eventID
            self.name = name
            self.anonymousID = anonymousID
            self.userID = userID
            self.occurredAt = occurredAt
            self.clamped = clamped
            self.properties = properties
            self.context = context
        }

        package func record(receivedAt: String) -> JSONValue {
            var object: [String: JSONValue] = [
                "event_id": .string(eventID), "name": .string(name), "anonymous_id": .string(anonymousID),
                "user_id": JSONValue(userID), "occurred_at": .string(occurredAt), "received_at": .string(receivedAt),
                "properties": .object(properties), "context": .object(context),
            ]
            if clamped { object["clamped"] = true }
            return .object(object)
        }
    }

    /// Checks one event in the order of the rejection table; `now` is the receive time.
    package static func validate(_ event: JSONValue, now: Double) -> Result<Accepted, Rejection> {
        guard case .object(let members) = event else {
            return .failure(Rejection(code: .invalidEvent, message: "Each item in events must be a JSON object"))
        }
        let invalidName = Rejection(code: .invalidName, message: "Event name must match ^[A-Za-z0-9_.:-]{1,64}$")
        guard case .string(let name)? = members["name"] else { return .failure(invalidName) }
        // The tracker's own rule, so that what a service may track is what the collector takes.
        switch EventName.problem(name) {
        case nil: break
        case .reserved?:
            return .failure(Rejection(code: .reservedName, message: "Event names starting with $ are reserved"))
        case .invalid?: return .failure(invalidName)
        }
        guard case .string(let eventID)? = members["event_id"], UUIDBytes.isCanonical(eventID) else {
            return .failure(Rejection(code: .invalidID, message: "event_id must be a UUID"))
        }
        guard case .string(let anonymousID)? = members["anonymous_id"], isID(anonymousID) else {
            return .failure(
                Rejection(code: .invalidID, message: "anonymous_id must be a string of 1 to 128 characters"))
        }
        var userID: String?
        switch members["user_id"] {
        case nil, .null?: userID = nil
        case .string(let value)? where isID(value): userID = value
        default:
            return .failure(
                Rejection(code: .invalidID, message: "user_id must be null or a string of 1 to 128 characters"))
        }
        guard case .string(var occurredAt)? = members["occurred_at"], let time = Timestamp(iso8601: occurredAt)?.seconds
        else {
            return .failure(
                Rejection(
                    code: .invalidTimestamp,
                    message: "occurred_at must be an ISO 8601 date-time with a time zone, e.g. 2026-10-23T12:00:00.123Z"
                ))
        }
        var properties: [String: JSONValue] = [:]
        switch members["properties"] {
        case nil, .null?:
            break
        case .object(let object)?:
            for (key, value) in object {
                guard (1...EventLimits.maxPropertyKeyLength).contains(key.count) else {
                    return .failure(
                        Rejection(code: .invalidProperties, message: "Property keys must be 1 to 64 characters"))
                }
                switch value {
                case .object, .array:
                    return .failure(
                        Rejection(
                            code: .invalidProperties,
                            message: "Property values must be strings, numbers, booleans or null, not objects or arrays"
                        ))
                case .string(let text) where text.count > EventLimits.maxPropertyStringLength:
                    return .failure(
                        Rejection(
                            code: .invalidProperties, message: "String property values are at most 1024 characters"))
                default:
                    break
                }
            }
            guard object.count <= EventLimits.maxProperties else {
                return .failure(Rejection(code: .tooManyProperties, message: "At most 50 properties per event"))
            }
            properties = object
        default:
            return .failure(Rejection(code: .invalidProperties, message: "properties must be a flat JSON object"))
        }
        guard JSON.serialize(event).count <= EventLimits.maxEventBytes else {
            return .failure(Rejection(code: .eventTooLarge, message: "An event is at most 8 KB serialized"))
        }
        var context: [String: JSONValue] = [:]
        if case .object(let object)? = members["context"] {
            for (key, value) in object where contextKeys.contains(key) {
                if case .string(let text) = value, text.count <= EventLimits.maxContextValueLength {
                    context[key] = value
                }
            }
        }
        let clamped = time < now - maxPast || time > now + maxFuture
        if clamped { occurredAt = Timestamp(seconds: now).iso8601 }
        return .success(
            Accepted(
                eventID: eventID.lowercased(), name: name, anonymousID: anonymousID, userID: userID,
                occurredAt: occurredAt, clamped: clamped, properties: properties, context: context))
    }

    private static func isID(_ text: String) -> Bool {
        (1...EventLimits.maxIDLength).contains(text.count)
    }
}
