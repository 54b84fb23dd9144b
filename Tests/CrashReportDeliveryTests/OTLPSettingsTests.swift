import CrashReporterHTTP
import CrashReporterSupport
import Testing

@testable import CrashReportDelivery

/// OpenTelemetry's exporter variables as the OTLP transport reads them (docs/opentelemetry.md).
@Suite("OTLP settings")
struct OTLPSettingsTests {
    func read(_ environment: [String: String], given: OTLPSettings.Given? = nil) throws -> OTLPSettings? {
        try OTLPSettings.read(EnvironmentSettings(environment), given: given)
    }

    @Test("the base endpoint gets /v1/logs after one slash; the logs endpoint is used as is and wins")
    func endpoints() throws {
        #expect(try read([:]) == nil)
        for base in ["http://127.0.0.1:4318", "http://127.0.0.1:4318/", "http://127.0.0.1:4318//"] {
            let settings = try #require(try read(["OTEL_EXPORTER_OTLP_ENDPOINT": base]))
            #expect(settings.endpoint.description == "http://127.0.0.1:4318/v1/logs")
            #expect(settings.encoding == .protobuf, "http/protobuf is the default")
        }
        let prefixed = try #require(try read(["OTEL_EXPORTER_OTLP_ENDPOINT": "https://otlp.example/otlp"]))
        #expect(prefixed.endpoint.description == "https://otlp.example/otlp/v1/logs")
        let logs = try #require(
            try read([
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1",
                "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT": "http://127.0.0.1:2/logs",
            ]))
        #expect(logs.endpoint.description == "http://127.0.0.1:2/logs")
    }

    @Test("headers are key=value pairs, percent-decoded, the logs variant winning; protocol and service name read")
    func headersAndProtocol() throws {
        let settings = try #require(
            try read([
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1",
                "OTEL_EXPORTER_OTLP_HEADERS": "x-ignored=1",
                "OTEL_EXPORTER_OTLP_LOGS_HEADERS": " Authorization = Bearer%20abc ,, x-tenant=a%3Db ",
                "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf", "OTEL_EXPORTER_OTLP_LOGS_PROTOCOL": "HTTP/JSON",
                "OTEL_SERVICE_NAME": " orders ",
            ]))
        #expect(
            settings.headers == [
                HTTPHeader(name: "Authorization", value: "Bearer abc"), HTTPHeader(name: "x-tenant", value: "a=b"),
            ])
        #expect(settings.encoding == .json)
        #expect(settings.serviceName == "orders")
    }

    @Test("bad values are refused with the variable's name; a headers error never shows a value")
    func badValues() throws {
        let base = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1"]
        #expect(
            throws: SettingError(
                name: "OTEL_EXPORTER_OTLP_PROTOCOL", value: "grpc",
                rule: "be http/protobuf or http/json: crash reports are exported over OTLP/HTTP, not gRPC (set "
                    + "OTEL_EXPORTER_OTLP_LOGS_PROTOCOL and OTEL_EXPORTER_OTLP_LOGS_ENDPOINT for them, or "
                    + "OTEL_LOGS_EXPORTER=none)")
        ) { try read(base.merging(["OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"]) { $1 }) }
        #expect(throws: SettingError.self) { try read(base.merging(["OTEL_EXPORTER_OTLP_PROTOCOL": "http"]) { $1 }) }
        #expect(throws: SettingError.self) { try read(["OTEL_EXPORTER_OTLP_ENDPOINT": "collector:4318"]) }
        #expect(throws: SettingError.self) { try read(["OTEL_EXPORTER_OTLP_LOGS_ENDPOINT": "ftp://x/v1/logs"]) }
        do {
            _ = try read(base.merging(["OTEL_EXPORTER_OTLP_HEADERS": "api-key=s3cr3t-value,s3cr3t-alone"]) { $1 })
            Issue.record("an entry without '=' was accepted")
        } catch {
            #expect("\(error)".contains("entry 2 has no '='"), "\(error)")
            #expect("\(error)".contains("api-key=***"))
            #expect(!"\(error)".contains("s3cr3t"), "\(error)")
        }
        #expect(throws: SettingError.self) {
            try read(base.merging(["OTEL_EXPORTER_OTLP_HEADERS": "bad header=1"]) { $1 })
        }
        #expect(throws: SettingError.self) {
            try read(base.merging(["OTEL_EXPORTER_OTLP_HEADERS": "x=%zz"]) { $1 })
        }
        #expect(throws: SettingError.self) {
            try read(base.merging(["OTEL_RESOURCE_ATTRIBUTES": "=value"]) { $1 })
        }
        #expect(throws: SettingError.self) { try read(base.merging(["OTEL_SDK_DISABLED": "maybe"]) { $1 }) }
    }

    @Test("OTEL_SDK_DISABLED=true and OTEL_LOGS_EXPORTER=none turn export off")
    func disabled() throws {
        let base = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1"]
        #expect(try read(base.merging(["OTEL_SDK_DISABLED": "true"]) { $1 }) == nil)
        #expect(try read(base.merging(["OTEL_LOGS_EXPORTER": "none"]) { $1 }) == nil)
        #expect(try read(base.merging(["OTEL_LOGS_EXPORTER": "otlp"]) { $1 }) != nil)
        #expect(try read(base.merging(["OTEL_SDK_DISABLED": "false"]) { $1 }) != nil)
    }

    @Test("identifying resource attributes are dropped and named; the others kept in order, the last of a repeat")
    func resourcePrivacy() throws {
        let settings = try #require(
            try read([
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1",
                "OTEL_RESOURCE_ATTRIBUTES":
                    "host.name=box1,team=payments,process.pid=42,process.runtime.name=swift,user.id=7,"
                    + "service.instance.id=i-1,k8s.pod.uid=u,k8s.pod.name=p,k8s.namespace.name=shop,container.id=c,"
                    + "cloud.region=eu-west-1,cloud.account.id=1,gcp.gce.instance.name=vm,client.address=1.2.3.4,"
                    + "deployment.environment.name=staging,team=checkout,faas.instance=f,Host.Arch=amd64",
            ]))
        #expect(
            settings.resourceAttributes == [
                OTLPAttribute("team", "checkout"), OTLPAttribute("process.runtime.name", "swift"),
                OTLPAttribute("k8s.namespace.name", "shop"), OTLPAttribute("cloud.region", "eu-west-1"),
                OTLPAttribute("deployment.environment.name", "staging"),
            ])
        #expect(
            settings.droppedResourceKeys == [
                "host.name", "process.pid", "user.id", "service.instance.id", "k8s.pod.uid", "k8s.pod.name",
                "container.id", "cloud.account.id", "gcp.gce.instance.name", "client.address", "faas.instance",
                "Host.Arch",
            ])
    }

    @Test("values given in code stand in for the variables; none given means none for the endpoint")
    func given() throws {
        let environment = [
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "OTEL_EXPORTER_OTLP_HEADERS": "x-from-env=1",
            "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
        ]
        let settings = try #require(
            try read(
                environment,
                given: OTLPSettings.Given(
                    logsEndpoint: "http://127.0.0.1:9/v1/logs", headers: ["x-key": "k"], encoding: "http/json",
                    serviceName: "billing", resourceAttributes: ["host.name": "h", "tier": "gold"], name: "Options.otlp"
                )))
        #expect(settings.endpoint.description == "http://127.0.0.1:9/v1/logs")
        #expect(settings.headers == [HTTPHeader(name: "x-key", value: "k")])
        #expect(settings.encoding == .json)
        #expect(settings.serviceName == "billing")
        #expect(settings.resourceAttributes == [OTLPAttribute("tier", "gold")])
        #expect(try read(environment, given: OTLPSettings.Given(name: "--otlp-endpoint")) == nil)
        #expect(throws: SettingError.self) {
            try read(
                [:],
                given: OTLPSettings.Given(logsEndpoint: "http://127.0.0.1:9", encoding: "grpc", name: "Options.otlp"))
        }
    }

    @Test("a DSN and a URL win over an OTLP endpoint; alone it makes the OTLP transport")
    func precedence() throws {
        let otlp = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1"]
        let alone = try DeliveryConfiguration(environment: otlp)
        guard case .otlp(let settings) = alone.destination else {
            Issue.record("no OTLP destination: \(String(describing: alone.destination))")
            return
        }
        #expect(settings.endpoint.description == "http://127.0.0.1:1/v1/logs")
        #expect(alone.makeTransport(release: nil, environment: nil) is OTLPTransport)
        let withURL = try DeliveryConfiguration(
            environment: otlp.merging(["CRASH_REPORTER_URL": "http://127.0.0.1:2/api/reports"]) { $1 })
        #expect(withURL.destination == .endpoint(try HTTPURL("http://127.0.0.1:2/api/reports")))
        // A service's own gRPC trace exporter settings do not matter while crashes go elsewhere.
        let grpcTraces = try DeliveryConfiguration(
            environment: otlp.merging([
                "CRASH_REPORTER_URL": "http://127.0.0.1:2", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
            ]) {
                $1
            })
        #expect(grpcTraces.destination == .endpoint(try HTTPURL("http://127.0.0.1:2")))
        #expect(throws: SettingError.self) {
            try DeliveryConfiguration(environment: otlp.merging(["OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"]) { $1 })
        }
    }
}
