import CrashReporterHTTP
import CrashReporterSupport
import Testing

@testable import CrashReportDelivery

/// The one reader of the delivery variables that the service and `crashreport upload` share.
@Suite("Delivery configuration")
struct DeliveryConfigurationTests {
    @Test("nothing set: no destination, the default policy and timeout, not disabled")
    func defaults() throws {
        let configuration = try DeliveryConfiguration(environment: [:])
        #expect(configuration.destination == nil)
        #expect(configuration.policy == DeliveryPolicy())
        #expect(configuration.uploadTimeout == .seconds(30))
        #expect(!configuration.disabledByOperator)
        #expect(configuration.makeTransport(release: nil, environment: nil) == nil)
    }

    @Test("a DSN wins over a URL; blank values are unset; numbers are read by Setting's rules")
    func reading() throws {
        let configuration = try DeliveryConfiguration(environment: [
            "SENTRY_DSN": " https://key@sentry.example/7 ", "CRASH_REPORTER_URL": "http://127.0.0.1:1/api/reports",
            "CRASH_REPORTER_RETRY_BASE_SECONDS": "0", "CRASH_REPORTER_UPLOAD_TIMEOUT_SECONDS": "2.5",
            "CRASH_REPORTER_DISABLED": "off",
        ])
        guard case .sentry(let dsn, let url) = configuration.destination else {
            Issue.record("no Sentry destination: \(String(describing: configuration.destination))")
            return
        }
        #expect(dsn.publicKey == "key")
        #expect(url.description == "https://sentry.example/api/7/envelope/")
        #expect(configuration.policy.backoff.base == .zero)
        #expect(configuration.uploadTimeout == .milliseconds(2500))
        #expect(!configuration.disabledByOperator)
        #expect(configuration.makeTransport(release: nil, environment: nil) is SentryTransport)

        let blankDSN = try DeliveryConfiguration(environment: [
            "SENTRY_DSN": "  ", "CRASH_REPORTER_URL": "http://127.0.0.1:1/api/reports",
            "CRASH_REPORTER_UPLOAD_TIMEOUT_SECONDS": "0",
        ])
        #expect(blankDSN.destination == .endpoint(try HTTPURL("http://127.0.0.1:1/api/reports")))
        #expect(blankDSN.uploadTimeout == ConfigurationDefaults.minimumUploadTimeout)
        #expect(blankDSN.makeTransport(release: nil, environment: nil) is HTTPEndpointTransport)
    }

    @Test("given values stand in for their variables, unset ones too")
    func given() throws {
        let environment = ["SENTRY_DSN": "https://key@sentry.example/7", "CRASH_REPORTER_RETRY_BASE_SECONDS": "-1"]
        let url = try DeliveryConfiguration(
            environment: environment, sentryDSN: .init(nil, name: "--dsn"),
            uploadURL: .init("http://127.0.0.1:9/r", name: "--url"), retryBaseDelay: .init(5, name: "retry"))
        #expect(url.destination == .endpoint(try HTTPURL("http://127.0.0.1:9/r")))
        #expect(url.policy.backoff.base == .seconds(5), "the variable's bad value is not read")
        #expect(throws: SettingError(name: "--url", value: "ftp://x", rule: "be an http or https URL")) {
            try DeliveryConfiguration(environment: [:], uploadURL: .init("ftp://x", name: "--url"))
        }
        #expect(throws: SettingError(name: "retry", value: "-1.0", rule: "be a number of seconds, zero or more")) {
            try DeliveryConfiguration(environment: [:], retryBaseDelay: .init(-1, name: "retry"))
        }
    }

    @Test(
        "a value that breaks its rule is refused, naming the variable and the value",
        arguments: [
            ("CRASH_REPORTER_RETRY_BASE_SECONDS", "-1"),
            ("CRASH_REPORTER_RETRY_BASE_SECONDS", "soon"),
            ("CRASH_REPORTER_UPLOAD_TIMEOUT_SECONDS", "-0.5"),
            ("CRASH_REPORTER_URL", "ftp://127.0.0.1/r"),
            ("CRASH_REPORTER_URL", "http://user@127.0.0.1/r"),
            ("SENTRY_DSN", "https://sentry.example/7"),
            ("SENTRY_DSN", "https://key@sentry.example/project"),
            ("CRASH_REPORTER_DISABLED", "perhaps"),
        ])
    func refused(name: String, value: String) {
        #expect {
            try DeliveryConfiguration(environment: [name: value])
        } throws: { error in
            guard let error = error as? SettingError else { return false }
            return error.name == name && error.value == value && error.description.hasPrefix("\(name) must ")
        }
    }

    @Test("CRASH_REPORTER_DISABLED: a true value disables; an unreadable one counts as disabled")
    func disabled() throws {
        #expect(try DeliveryConfiguration(environment: ["CRASH_REPORTER_DISABLED": "YES"]).disabledByOperator)
        let missing = "/nonexistent/state"
        #expect(!CrashReportingChoice.isEnabled(stateDirectory: missing, environment: ["CRASH_REPORTER_DISABLED": "1"]))
        #expect(CrashReportingChoice.isEnabled(stateDirectory: missing, environment: ["CRASH_REPORTER_DISABLED": "0"]))
        #expect(
            !CrashReportingChoice.isEnabled(
                stateDirectory: missing, environment: ["CRASH_REPORTER_DISABLED": "perhaps"]))
    }
}
