import CrashReporterSupport

/// One log record as the collector keeps it: its fields, its attributes and its resource's and
/// scope's, as a JSON object with the attributes as maps (`{"service.name": "orders"}`).
package struct OTLPReceivedRecord: Sendable, Equatable {
    package var resource: [String: JSONValue]
    package var scope: [String: JSONValue]
    package var timeUnixNano: UInt64 = 0
    package var observedTimeUnixNano: UInt64 = 0
    package var severityNumber: Int64 = 0
    package var severityText = ""
    package var eventName = ""
    package var body = JSONValue.null
    package var attributes: [String: JSONValue] = [:]

    /// Why the record cannot be kept, nil when it can.
    var problem: String? {
        guard (0...24).contains(severityNumber) else { return "severity_number \(severityNumber) is not 0 to 24" }
        return nil
    }

    /// The report id the OTLP transport puts on its records (docs/opentelemetry.md), when it is
    /// one: the collector stores a retried record once.
    package var reportID: String? {
        guard case .string(let id)? = attributes["swift_crash_reporter.report.id"], (1...64).contains(id.utf8.count),
            id.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (48...57).contains($0) || (97...102).contains($0) })
        else { return nil }
        return id
    }

    /// The record as the collector stores and lists it (times as decimal strings, as OTLP/JSON has them).
    package var json: JSONValue {
        [
            "time_unix_nano": .string(String(timeUnixNano)),
            "observed_time_unix_nano": .string(String(observedTimeUnixNano)),
            "severity_number": .number(.int(severityNumber)), "severity_text": .string(severityText),
            "event_name": .string(eventName), "body": body, "attributes": .object(attributes),
            "resource": .object(resource), "scope": .object(scope),
        ]
    }
}

extension OTLPLogsParser.Export {
    /// Keeps the record, or counts it as rejected with its reason.
    mutating func add(_ record: OTLPReceivedRecord) {
        if let problem = record.problem {
            rejected += 1
            if rejection == nil { rejection = "log record \(records.count + rejected - 1): \(problem)" }
        } else {
            records.append(record)
        }
    }
}

/// A request body that is not an OTLP logs export, with the reason.
package struct OTLPLogsError: Error, Sendable, Equatable, CustomStringConvertible {
    package var reason: String
    package var description: String { reason }
}
