import CrashReporterSupport
import Foundation

/// Scripts/otlp_receiver.py as a child process: an OTLP/HTTP logs receiver that decodes every
/// request with the official OpenTelemetry definitions (PyPI's opentelemetry-proto, installed
/// on first use into a virtual environment under .build) and answers with the next response of
/// a script (see the script for the forms).
public final class OTLPReceiver {
    public let port: Int
    /// Where the script records the requests (`requests.jsonl`).
    public let records: URL
    private let server: PythonServer

    public init(responses: [String]) throws {
        let python = try OTLPReceiver.python.get()
        records = FileManager.default.temporaryDirectory.appendingPathComponent("otlp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: records, withIntermediateDirectories: true)
        server = try PythonServer(
            script: "otlp_receiver.py", arguments: [records.path, responses.joined(separator: ",")], python: python)
        port = server.port
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: records)
    }

    /// `OTEL_EXPORTER_OTLP_ENDPOINT`'s value for this receiver (the transport appends `/v1/logs`).
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The requests received so far, in order: `path`, `headers`, `content_type`, `raw` (the
    /// decompressed body), and `export` (the request as the official definitions decoded it,
    /// `MessageToDict`'s form) or `error`.
    public var requests: [[String: Any]] {
        guard let text = try? String(contentsOf: records.appendingPathComponent("requests.jsonl"), encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.sorted { ($0["n"] as? Int ?? 0) < ($1["n"] as? Int ?? 0) }
    }

    /// The log records of a decoded request, each with its resource's attributes beside it:
    /// `(resource, scope, record)`, attributes as `[key: value]` with the value as
    /// `MessageToDict` writes `AnyValue` (`{"stringValue": …}`, `{"intValue": "…"}`).
    public static func records(of request: [String: Any]) -> [(
        resource: [String: Any], scope: [String: Any], record: [String: Any]
    )] {
        var result: [(resource: [String: Any], scope: [String: Any], record: [String: Any])] = []
        let export = request["export"] as? [String: Any] ?? [:]
        for resourceLogs in export["resourceLogs"] as? [[String: Any]] ?? [] {
            let resource = attributes((resourceLogs["resource"] as? [String: Any])?["attributes"])
            for scopeLogs in resourceLogs["scopeLogs"] as? [[String: Any]] ?? [] {
                let scope = scopeLogs["scope"] as? [String: Any] ?? [:]
                for record in scopeLogs["logRecords"] as? [[String: Any]] ?? [] {
                    result.append((resource, scope, record))
                }
            }
        }
        return result
    }

    /// A list of `KeyValue`s as a dictionary of their values.
    public static func attributes(_ list: Any?) -> [String: Any] {
        var result: [String: Any] = [:]
        for pair in list as? [[String: Any]] ?? [] {
            if let key = pair["key"] as? String { result[key] = pair["value"] ?? [:] }
        }
        return result
    }

    /// The text of a string `AnyValue` as `MessageToDict` writes it.
    public static func string(_ value: Any?) -> String? { (value as? [String: Any])?["stringValue"] as? String }

    /// The virtual environment's interpreter, made once per test process (and kept in .build
    /// for the next): `python3 -m venv`, then `pip install opentelemetry-proto`.
    static let python: Result<String, TestFailure> = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let venv = root.appendingPathComponent(".build/otlp-venv")
        let python = venv.appendingPathComponent("bin/python").path
        let probe = [
            "-c", "import opentelemetry.proto.collector.logs.v1.logs_service_pb2, google.protobuf.json_format",
        ]
        if (try? ProgramRun(python, probe).status) == 0 { return .success(python) }
        // Made beside it and renamed into place, so that a concurrent test process never uses half of one.
        let staging = root.appendingPathComponent(".build/otlp-venv-\(getpid())")
        try? FileManager.default.removeItem(at: staging)
        do {
            _ = try ProgramRun.output("/usr/bin/env", ["python3", "-m", "venv", staging.path])
            _ = try ProgramRun.output(
                staging.appendingPathComponent("bin/python").path,
                ["-m", "pip", "install", "-q", "opentelemetry-proto"])
            if rename(staging.path, venv.path) != 0 { try? FileManager.default.removeItem(at: staging) }
        } catch {
            return .failure(TestFailure("cannot make the OTLP test environment: \(error)"))
        }
        return (try? ProgramRun(python, probe).status) == 0
            ? .success(python) : .failure(TestFailure("opentelemetry-proto is not importable from \(python)"))
    }()
}
