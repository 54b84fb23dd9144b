import CrashCollectorParsers
import CrashReporterHTTP
import CrashReporterSupport
import Foundation

/// `POST /v1/logs`: OTLP/HTTP logs (docs/collector.md, "OTLP logs"), protobuf
/// (`application/x-protobuf`) or OTLP/JSON (`application/json`), gzip or not. Each record is
/// stored as `DATA/logs-otlp/<id>.json` (the crash reporter's report id when the record has one,
/// so a retry is stored once), listed by `GET /api/logs`. The answer is an
/// `ExportLogsServiceResponse` in the request's encoding, with a partial success for records
/// it could not keep; a failure is a `google.rpc.Status` in that encoding.
extension Collector {
    func receiveLogs(_ request: ReceivedRequest) -> HTTPResponse {
        let contentType =
            (request.headers["Content-Type"] ?? "").split(separator: ";").first
            .map { $0.trimmingASCIIWhitespace().lowercased() } ?? ""
        let json: Bool
        switch contentType {
        case "application/x-protobuf": json = false
        case "application/json": json = true
        default:
            return LogsEndpoint.status(
                415, "Content-Type must be application/x-protobuf or application/json", json: true)
        }
        let body: Data
        switch BodyDecoding.decode(request, limit: configuration.maxBodyBytes) {
        case .success(let data): body = data
        case .failure(let failure):
            let (status, reason) = BodyDecoding.statusAndReason(failure)
            return LogsEndpoint.status(status, reason, json: json)
        }
        let export: OTLPLogsParser.Export
        do throws(OTLPLogsError) {
            if json {
                guard let value = try? JSON.parse(body) else {
                    return LogsEndpoint.status(400, "the body is not JSON", json: true)
                }
                export = try OTLPLogsParser.parse(json: value)
            } else {
                export = try OTLPLogsParser.parse(protobuf: [UInt8](body))
            }
        } catch {
            return LogsEndpoint.status(400, "not an OTLP logs export: \(error)", json: json)
        }
        guard export.records.count <= LogsEndpoint.maxRecords else {
            return LogsEndpoint.status(
                413, "more than \(LogsEndpoint.maxRecords) log records in one request; nothing was stored", json: json)
        }
        let receivedAt = Timestamp(seconds: now()).iso8601
        do {
            for record in export.records {
                var stored = record.json
                if case .object(var members) = stored {
                    members["received_at"] = .string(receivedAt)
                    stored = .object(members)
                }
                _ = try otlpLogs.store(
                    Data(JSON.serialize(stored)), eventID: record.reportID ?? UUID().uuidString.lowercased())
            }
        } catch {
            Log.error("cannot store an OTLP log record: \(error)")
            return LogsEndpoint.status(500, "cannot store the log records", json: json)
        }
        Log.info(
            "stored \(export.records.count) OTLP log record(s)"
                + (export.rejected > 0 ? ", rejected \(export.rejected)" : ""))
        return LogsEndpoint.success(rejected: export.rejected, message: export.rejection ?? "", json: json)
    }

    /// `GET /api/logs`: the stored log records, oldest first.
    func listLogs() -> HTTPResponse {
        func time(_ record: JSONValue) -> UInt64 { record["time_unix_nano"]?.stringValue.flatMap { UInt64($0) } ?? 0 }
        let records = otlpLogs.storedFiles().compactMap { try? JSON.parse($0) }.sorted { time($0) < time($1) }
        return .json(200, ["count": JSONValue(records.count), "records": .array(records)])
    }
}

enum LogsEndpoint {
    /// The most records one request may store: each is a file of its own.
    static let maxRecords = 1000

    /// `ExportLogsServiceResponse`: empty when all was kept, else `partial_success` (field 1)
    /// with `rejected_log_records` (1) and `error_message` (2).
    static func success(rejected: Int, message: String, json: Bool) -> HTTPResponse {
        if json {
            let value: JSONValue =
                rejected == 0 && message.isEmpty
                ? [:]
                : [
                    "partialSuccess": [
                        "rejectedLogRecords": .string(String(rejected)), "errorMessage": .string(message),
                    ]
                ]
            return .json(200, value)
        }
        var response = ProtobufWriter()
        if rejected > 0 || !message.isEmpty {
            response.message(1) { partial in
                if rejected > 0 { partial.integer(1, Int64(rejected)) }
                if !message.isEmpty { partial.string(2, message) }
            }
        }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "application/x-protobuf")], body: Data(response.bytes))
    }

    /// A failure as `google.rpc.Status`: `code` (1, gRPC's code for the status) and `message` (2).
    static func status(_ status: Int, _ message: String, json: Bool, headers: [(String, String)] = []) -> HTTPResponse {
        let code: Int64 =
            switch status {
            case 400, 413, 415: 3  // INVALID_ARGUMENT
            case 429: 8  // RESOURCE_EXHAUSTED
            case 503: 14  // UNAVAILABLE
            default: 13  // INTERNAL
            }
        if json { return .json(status, ["code": .number(.int(code)), "message": .string(message)], headers: headers) }
        var body = ProtobufWriter()
        body.integer(1, code)
        body.string(2, message)
        return HTTPResponse(
            status: status, headers: [("Content-Type", "application/x-protobuf")] + headers, body: Data(body.bytes))
    }
}
