import CrashReporterSupport

/// Checks a release-health session update, as a `session` envelope item or an element of
/// `POST /api/sessions` carries it (docs/sentry.md, "Sessions"; docs/runs.md): `sid` a UUID,
/// `started` (and `timestamp`, when present) ISO-8601 times, `status` one of Sentry's,
/// `errors` and `duration` not negative, `attrs.release` a non-empty string. A `did` must be
/// a string (the reporter never sends one). What passes is stored; what does not is a 400.
enum SessionValidation {
    static let statuses: Set<String> = ["ok", "exited", "crashed", "abnormal", "errored"]

    /// The session's id (32 lower-case hex digits) when it is valid, else why not.
    static func check(_ value: JSONValue) -> Result<String, InvalidSession> {
        guard let session = value.objectValue else { return .failure("the session is not a JSON object") }
        guard let sid = SentryEventID.normalized(session["sid"]?.stringValue) else {
            return .failure("sid is not a UUID")
        }
        guard let started = session["started"]?.stringValue, Timestamp(iso8601: started) != nil else {
            return .failure("started is not an ISO-8601 time")
        }
        if let timestamp = session["timestamp"], timestamp.stringValue.flatMap({ Timestamp(iso8601: $0) }) == nil {
            return .failure("timestamp is not an ISO-8601 time")
        }
        guard let status = session["status"]?.stringValue, statuses.contains(status) else {
            return .failure(InvalidSession("status is not one of \(statuses.sorted().joined(separator: ", "))"))
        }
        if let errors = session["errors"], (errors.numberValue?.exactly(Int.self) ?? -1) < 0 {
            return .failure("errors is not a count")
        }
        if let duration = session["duration"], (duration.numberValue?.doubleValue ?? -1) < 0 {
            return .failure("duration is not a number of seconds")
        }
        if let initial = session["init"], initial.boolValue == nil { return .failure("init is not a boolean") }
        if let did = session["did"], did.stringValue == nil { return .failure("did is not a string") }
        guard let attrs = session["attrs"]?.objectValue, let release = attrs["release"]?.stringValue,
            !release.isEmpty
        else { return .failure("attrs.release is missing") }
        if let environment = attrs["environment"], environment.stringValue == nil {
            return .failure("attrs.environment is not a string")
        }
        return .success(sid)
    }

    struct InvalidSession: Error, ExpressibleByStringLiteral, CustomStringConvertible {
        var description: String
        init(stringLiteral value: String) { description = value }
        init(_ value: String) { description = value }
    }
}
