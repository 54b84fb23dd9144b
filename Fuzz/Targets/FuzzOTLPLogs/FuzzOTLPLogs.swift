import CrashCollectorParsers
import CrashReporterSupport

/// The collector's `POST /v1/logs` body, as `OTLPLogsParser` reads it: every input as protobuf
/// (any bytes are a protobuf stream to try), and as OTLP/JSON when it parses as JSON.
///
/// Properties: nothing crashes; a kept record's severity number is in range (0 to 24); each kept
/// record's JSON form, as the collector stores it, parses back and serializes to the same bytes; a
/// record is either kept or counted as rejected, and a rejection has a reason.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOTLPLogs(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    if let export = try? OTLPLogsParser.parse(protobuf: bytes) { check(export) }
    if let value = try? JSON.parse(bytes), let export = try? OTLPLogsParser.parse(json: value) { check(export) }
    return 0
}

private func check(_ export: OTLPLogsParser.Export) {
    precondition(export.rejected >= 0, "a negative count of rejected records")
    precondition(
        (export.rejected == 0) == (export.rejection == nil), "rejected records without a reason, or the reverse")
    for record in export.records {
        precondition((0...24).contains(record.severityNumber), "a kept record's severity is out of range")
        let stored = JSON.serialize(record.json)
        guard let again = try? JSON.parse(stored) else { fatalError("a kept record's JSON does not parse") }
        precondition(JSON.serialize(again) == stored, "a kept record's stored JSON changed when read back")
    }
}
