import Foundation
import TestSupport
import Testing

/// The next launch exports what the last crash left as an OpenTelemetry log record over
/// OTLP/HTTP, to a receiver that decodes it with the official opentelemetry-proto definitions:
/// the record's fields and conventions, nothing that names a person or a machine, and the
/// delivery rules of the other transports (docs/opentelemetry.md).
@Suite("OTLP export at the next launch")
struct OTLPDeliveryTests {
    let binary = Binaries.crashTest(build: "debug")
    static let plantedHost = "planted-host-z8k2.example.internal"
    static let plantedKey = "planted-api-key-Q7w1"

    /// OpenTelemetry's variables for `receiver`, with a planted host name, process id and user
    /// among the resource attributes, and an API key in the headers.
    func environment(_ receiver: OTLPReceiver, encoding: String) -> [String: String] {
        [
            "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.baseURL + "/",
            "OTEL_EXPORTER_OTLP_PROTOCOL": encoding,
            "OTEL_EXPORTER_OTLP_HEADERS": "x-api-key=\(Self.plantedKey),x-tenant=team%20one",
            "OTEL_SERVICE_NAME": "orders",
            "OTEL_RESOURCE_ATTRIBUTES":
                "host.name=\(Self.plantedHost),process.pid=4242,user.name=\(CrashSandbox.plantedUser),"
                + "service.instance.id=\(Self.plantedHost),k8s.pod.uid=0f0e7a1c,team=payments",
            "CRASH_REPORTER_RETRY_BASE_SECONDS": "0",
        ]
    }

    func crashOnce(_ sandbox: CrashSandbox) async throws -> String {
        _ = try await sandbox.crash("segfault")
        return try sandbox.onlyPendingID()
    }

    @Test(
        "a crash becomes one FATAL log record with the exception conventions, decoded by the official definitions",
        arguments: ["http/protobuf", "http/json"])
    func export(encoding: String) async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let id = try await crashOnce(sandbox)
        let receiver = try OTLPReceiver(responses: ["200"])
        let result = try await sandbox.deliver(environment(receiver, encoding: encoding))
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("delivered 1"), "\(result.stdout) \(result.stderr)")
        let requests = receiver.requests
        try #require(requests.count == 1)
        let request = requests[0]
        #expect(request["error"] == nil, "the official definitions refused it: \(request["error"] ?? "")")
        #expect(request["path"] as? String == "/v1/logs")
        #expect(
            request["content_type"] as? String
                == (encoding == "http/json" ? "application/json" : "application/x-protobuf"))
        let headers = request["headers"] as? [String: String] ?? [:]
        #expect(headers["x-api-key"] == Self.plantedKey)
        #expect(headers["x-tenant"] == "team one", "header values are percent-decoded")
        #expect(headers["content-encoding"] == "gzip")

        let records = OTLPReceiver.records(of: request)
        try #require(records.count == 1)
        let (resource, scope, record) = records[0]
        #expect(OTLPReceiver.string(resource["service.name"]) == "orders")
        #expect(OTLPReceiver.string(resource["team"]) == "payments")
        #expect(OTLPReceiver.string(resource["deployment.environment.name"]) == "production")
        for dropped in ["host.name", "process.pid", "user.name", "service.instance.id", "k8s.pod.uid"] {
            #expect(resource[dropped] == nil, "\(dropped) must not be sent")
        }
        #expect(scope["name"] as? String == "swift-crash-reporter")
        #expect(record["severityNumber"] as? String == "SEVERITY_NUMBER_FATAL")
        #expect(record["severityText"] as? String == "FATAL")
        #expect(record["eventName"] as? String == "swift_crash_reporter.crash")
        #expect((record["timeUnixNano"] as? String).flatMap(UInt64.init) ?? 0 > 1_600_000_000_000_000_000)
        #expect(OTLPReceiver.string(record["body"])?.contains("crashBySegfault") == true, "\(record["body"] ?? "")")
        let attributes = OTLPReceiver.attributes(record["attributes"])
        #expect(OTLPReceiver.string(attributes["exception.type"]) == "SIGSEGV")
        #expect(OTLPReceiver.string(attributes["exception.message"])?.hasPrefix("Segmentation fault") == true)
        let stack = OTLPReceiver.string(attributes["exception.stacktrace"]) ?? ""
        #expect(stack.contains("crashBySegfault"), "the symbolicated crashing thread: \(stack)")
        #expect(stack.contains("(main thread, crashed)"))
        #expect(OTLPReceiver.string(attributes["swift_crash_reporter.report.id"]) == id)
        #expect(OTLPReceiver.string(attributes["swift_crash_reporter.signature"])?.hasPrefix("SIGSEGV | ") == true)

        // Nothing personal anywhere in the body as sent.
        let raw = request["raw"] as? String ?? ""
        for secret in CrashSandbox.secrets + [Self.plantedHost, Self.plantedKey] {
            #expect(!raw.contains(secret), "\(secret) leaked into the OTLP request")
        }
        #expect(sandbox.names(in: "delivered") == ["\(id).crash"])
    }

    @Test("503 with Retry-After, then 200: the same report is exported again and delivered")
    func retriesAfter503() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let id = try await crashOnce(sandbox)
        let receiver = try OTLPReceiver(responses: ["503@0", "200"])
        let env = environment(receiver, encoding: "http/protobuf")
        _ = try await sandbox.deliver(env)
        if !sandbox.names(in: "pending").isEmpty { _ = try await sandbox.deliver(env) }
        let requests = receiver.requests
        #expect(requests.count == 2, "\(requests.map { $0["response"] ?? "" })")
        let ids = requests.flatMap(OTLPReceiver.records).map {
            OTLPReceiver.string(OTLPReceiver.attributes($0.record["attributes"])["swift_crash_reporter.report.id"])
        }
        #expect(ids == [id, id])
        #expect(sandbox.names(in: "delivered") == ["\(id).crash"])
    }

    @Test("400 is final: the report is kept in rejected/ with the status and the receiver's words")
    func badRequestIsFinal() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let id = try await crashOnce(sandbox)
        let receiver = try OTLPReceiver(responses: ["400"])
        let env = environment(receiver, encoding: "http/protobuf")
        _ = try await sandbox.deliver(env)
        #expect(sandbox.names(in: "rejected") == ["\(id).crash"])
        let note =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: sandbox.state.appendingPathComponent("rejected/\(id).reason"))) as? [String: Any]
        #expect(note?["status"] as? Int == 400)
        #expect((note?["reason"] as? String)?.contains("test receiver says 400") == true, "\(note ?? [:])")
        _ = try await sandbox.deliver(env)
        #expect(receiver.requests.count == 1, "a rejected report is not sent again")
    }

    @Test("a partial success that rejects the record keeps it in rejected/; one that only warns is delivered and said")
    func partialSuccess() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let first = try await crashOnce(sandbox)
        let receiver = try OTLPReceiver(responses: ["partial@1", "warn"])
        let env = environment(receiver, encoding: "http/json")
        _ = try await sandbox.deliver(env)
        #expect(sandbox.names(in: "rejected") == ["\(first).crash"])
        let note =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: sandbox.state.appendingPathComponent("rejected/\(first).reason")))
            as? [String: Any]
        #expect((note?["reason"] as? String)?.contains("test receiver rejects 1 record(s)") == true, "\(note ?? [:])")

        let second = try await crashOnce(sandbox)
        let result = try await sandbox.deliver(env)
        #expect(sandbox.names(in: "delivered") == ["\(second).crash"])
        #expect(result.stderr.contains("test receiver warns"), "the warning reaches the diagnostics: \(result.stderr)")
    }

    @Test("crashreport upload --otlp-endpoint exports with the variables' headers; a gRPC protocol is refused")
    func uploadCommand() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let id = try await crashOnce(sandbox)
        let receiver = try OTLPReceiver(responses: ["200"])
        let endpoint = "\(receiver.baseURL)/custom/logs"
        let refused = try await sandbox.crashreport(
            ["upload", "--otlp-endpoint", endpoint], ["OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"])
        #expect(refused.exitCode == 1)
        #expect(
            refused.stderr.contains("OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json"),
            "\(refused.stderr)")
        #expect(receiver.requests.isEmpty)
        let result = try await sandbox.crashreport(
            ["upload", "--otlp-endpoint", endpoint], ["OTEL_EXPORTER_OTLP_HEADERS": "x-api-key=\(Self.plantedKey)"])
        #expect(result.exitCode == 0, "\(result.stdout) \(result.stderr)")
        let request = try #require(receiver.requests.first)
        #expect(request["path"] as? String == "/custom/logs", "the logs endpoint is used as is")
        #expect((request["headers"] as? [String: String])?["x-api-key"] == Self.plantedKey)
        #expect(OTLPReceiver.records(of: request).count == 1)
        #expect(sandbox.names(in: "delivered") == ["\(id).crash"])
    }

    @Test("the collector's POST /v1/logs stores the record of either encoding once, and GET /api/logs lists it")
    func collectorReceives() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let collector = try await CollectorChild(data: try sandbox.scratch("collector"), home: sandbox.home)
        for encoding in ["http/protobuf", "http/json"] {
            let id = try await crashOnce(sandbox)
            let result = try await sandbox.deliver([
                "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT": "http://127.0.0.1:\(collector.port)/v1/logs",
                "OTEL_EXPORTER_OTLP_PROTOCOL": encoding,
                "OTEL_RESOURCE_ATTRIBUTES": "host.name=\(Self.plantedHost)",
            ])
            #expect(result.stdout.contains("delivered 1"), "\(encoding): \(result.stdout) \(result.stderr)")
            #expect(sandbox.names(in: "delivered").contains("\(id).crash"))
        }
        let listing = try await collector.get("/api/logs")
        #expect(listing.status == 200)
        let value = try JSONSerialization.jsonObject(with: Data(listing.text.utf8)) as? [String: Any]
        let records = value?["records"] as? [[String: Any]] ?? []
        #expect(records.count == 2, "\(listing.text.prefix(400))")
        for record in records {
            #expect(record["severity_number"] as? Int == 21)
            let attributes = record["attributes"] as? [String: Any] ?? [:]
            #expect(attributes["exception.type"] as? String == "SIGSEGV")
            #expect((attributes["exception.stacktrace"] as? String)?.contains("crashBySegfault") == true)
            #expect((record["resource"] as? [String: Any])?["host.name"] == nil)
        }
        #expect(!listing.text.contains(Self.plantedHost))
        #expect(collector.files("logs-otlp").count == 2)
        try await collector.stop()
    }
}
