import CrashReportFormat
import CrashReporterSupport

/// The report reader: gzip, then JSON, then the schema, then the model. Input that starts with
/// gzip's magic goes through `decode(gzipData:)`, anything else through `decode(json:)`, so the
/// fuzzer can mutate the JSON directly as well as the compressed stream.
///
/// Properties: nothing crashes; a report that decodes renders to JSON that validates against
/// the schema and decodes back to the same report; the validator agrees with the decoder
/// (a report it decodes has no violation).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReportReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let report: CrashReport
    do {
        if size >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b {
            report = try ReportDecoding.decode(gzipData: bytes)
        } else {
            _ = JSONSchemaValidator(schema: ReportSchema.schema).validate(json: bytes)
            report = try ReportDecoding.decode(json: bytes)
        }
    } catch {
        _ = error.description
        return 0
    }
    guard let rendered = try? JSONRenderer().data(for: report) else {
        fatalError("a decoded report does not render")
    }
    let violations = JSONSchemaValidator(schema: ReportSchema.schema).validate(json: rendered)
    precondition(violations.isEmpty, "a rendered report violates the schema: \(violations)")
    do {
        let again = try ReportDecoding.decode(json: rendered)
        precondition(again == report, "render → decode changed the report")
    } catch {
        fatalError("a rendered report does not decode: \(error)")
    }
    return 0
}
