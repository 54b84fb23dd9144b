import CrashReportSentry
import CrashReporterHTTP
import CrashReporterSupport

/// The delivery settings that the service (`CrashReporter.start`) and `crashreport upload`
/// both take from the environment, read here once so that both accept and refuse the same
/// values with the same message (the support module's `Setting` rules):
///
/// | variable | rule |
/// |---|---|
/// | `SENTRY_DSN` | a Sentry DSN whose envelope URL the HTTP client can use |
/// | `CRASH_REPORTER_URL` | an http or https URL the HTTP client can use |
/// | `OTEL_EXPORTER_OTLP_*`, `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES` | `OTLPSettings` |
/// | `CRASH_REPORTER_RETRY_BASE_SECONDS` | seconds, zero or more |
/// | `CRASH_REPORTER_UPLOAD_TIMEOUT_SECONDS` | seconds, zero or more (at least 0.1 is used) |
/// | `CRASH_REPORTER_DISABLED` | a boolean (`CrashReportingChoice`) |
/// | `SENTRY_RELEASE`, `SENTRY_ENVIRONMENT`, `CRASH_REPORTER_DIR` | any text; blank is unset |
/// | `CRASH_REPORTER_CAP_*`, `CRASH_REPORTER_MAX_PENDING_*`, `CRASH_REPORTER_KEEP_DAYS` | `DeliveryLimits` |
///
/// Every value read is checked when the configuration is made, used or not (a URL behind a
/// DSN too), so that a mistake shows at start (or when `upload` runs) rather than when the
/// first report is due. OpenTelemetry's variables are the exception: they are read only when
/// neither a DSN nor a URL is set, since they usually configure the service's own telemetry.
package struct DeliveryConfiguration: Sendable {
    /// Where reports go.
    package enum Destination: Sendable, Equatable {
        /// A Sentry project, with the envelope URL its DSN names.
        case sentry(SentryDSN, envelopeURL: HTTPURL)
        /// A plain HTTP endpoint that takes the report file as written.
        case endpoint(HTTPURL)
        /// An OpenTelemetry logs endpoint (OTLP/HTTP).
        case otlp(OTLPSettings)
    }

    /// A value given in code or on the command line that stands in for a variable, with the
    /// name its errors use (`Options.uploadURL`, `--url`). For the destination a nil `value`
    /// means "not set": the variable is not read either.
    package typealias Given = GivenSetting

    /// Where reports go; nil when no DSN, URL or OTLP endpoint is set (they stay on the
    /// machine). A DSN wins over a URL, and a URL over an OTLP endpoint: a service that sets
    /// OpenTelemetry's variables for its traces and the project's for its crashes keeps
    /// sending crashes where it did.
    package var destination: Destination?
    package var policy: DeliveryPolicy
    /// The crash-loop cap and retention bounds (`DeliveryLimits`, its variables).
    package var limits: DeliveryLimits
    /// How long the whole exchange of one upload may take.
    package var uploadTimeout: Duration
    /// `CRASH_REPORTER_DISABLED`: the operator turned crash reporting off.
    package var disabledByOperator: Bool
    /// The environment the HTTP client reads its proxies and trust store from.
    package var environment: [String: String]

    /// Reads `environment`. `sentryDSN` and `uploadURL`, when given, stand in for
    /// `SENTRY_DSN` and `CRASH_REPORTER_URL`, `otlp` for OpenTelemetry's variables
    /// (`OTLPSettings`); `retryBaseDelay`, when given, for
    /// `CRASH_REPORTER_RETRY_BASE_SECONDS` (checked by the same rule). Throws the first value
    /// that breaks its rule.
    package init(
        environment: [String: String], sentryDSN: Given<String>? = nil, uploadURL: Given<String>? = nil,
        otlp: OTLPSettings.Given? = nil, retryBaseDelay: Given<Double>? = nil,
        limits: DeliveryLimits.Given = DeliveryLimits.Given()
    ) throws(SettingError) {
        self.environment = environment
        let settings = EnvironmentSettings(environment)
        let dsn = try Self.sentryDSN(sentryDSN ?? settings.given(.sentryDSN))
        let url = try Self.endpointURL(uploadURL ?? settings.given(.uploadURL))
        // OpenTelemetry's variables usually configure the service's own telemetry (a gRPC trace
        // exporter, say): they are read only when no DSN or URL says where crashes go.
        if let dsn {
            destination = dsn
        } else if let url {
            destination = .endpoint(url)
        } else {
            destination = try OTLPSettings.read(settings, given: otlp).map(Destination.otlp)
        }
        policy = DeliveryPolicy()
        let base: Double?
        if let retryBaseDelay {
            base = try retryBaseDelay.value.map { (value) throws(SettingError) in
                try Setting.seconds(value, name: retryBaseDelay.name)
            }
        } else {
            base = try settings.seconds(.retryBaseSeconds)
        }
        if let base { policy.backoff.base = .seconds(clamping: base) }
        let uploadTimeout = try settings.seconds(.uploadTimeoutSeconds).map(Duration.seconds(clamping:))
        self.uploadTimeout = Swift.max(
            uploadTimeout ?? ConfigurationDefaults.uploadTimeout, ConfigurationDefaults.minimumUploadTimeout)
        disabledByOperator = try CrashReportingChoice.operatorDisabled(settings)
        self.limits = try DeliveryLimits(settings, given: limits)
    }

    /// The transport for the destination, nil without one. `release` and `environment` go into
    /// Sentry events (nil: the report's own version and environment); `diagnose` takes what a
    /// receiver warns about while accepting a report (an OTLP partial success).
    package func makeTransport(
        release: String?, environment sentryEnvironment: String?,
        diagnose: @escaping @Sendable (String) -> Void = { _ in }
    ) -> (any ReportTransport)? {
        switch destination {
        case .sentry(let dsn, let envelopeURL):
            SentryTransport(
                dsn: dsn, envelopeURL: envelopeURL, release: release, environment: sentryEnvironment,
                timeout: uploadTimeout, clientEnvironment: environment)
        case .endpoint(let url):
            HTTPEndpointTransport(url: url, timeout: uploadTimeout, environment: environment)
        case .otlp(let settings):
            OTLPTransport(
                settings: settings, timeout: uploadTimeout, environment: environment, diagnose: diagnose)
        case nil:
            nil
        }
    }

    /// A Sentry DSN, and the envelope URL it names parsed for the HTTP client.
    static func sentryDSN(_ given: Given<String>) throws(SettingError) -> Destination? {
        guard let text = Setting.text(given.value) else { return nil }
        let dsn: SentryDSN
        do {
            dsn = try SentryDSN(text)
        } catch {
            throw SettingError(name: given.name, value: text, rule: "be a Sentry DSN: \(error)")
        }
        do {
            return .sentry(dsn, envelopeURL: try HTTPURL(dsn.envelopeURL))
        } catch {
            throw SettingError(name: given.name, value: text, rule: "be a Sentry DSN the HTTP client can use: \(error)")
        }
    }

    /// An http or https URL by `Setting.httpURL`'s rule, parsed for the HTTP client (which
    /// also refuses user names and non-ASCII hosts).
    static func endpointURL(_ given: Given<String>) throws(SettingError) -> HTTPURL? {
        guard let text = try Setting.httpURL(given.value, name: given.name) else { return nil }
        do {
            return try HTTPURL(text)
        } catch {
            let reason = if case .invalidURL(let reason) = error { reason } else { error.description }
            throw SettingError(
                name: given.name, value: text, rule: "be an http or https URL the client can use: \(reason)")
        }
    }
}
