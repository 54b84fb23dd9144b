/// Every environment variable the project reads, spelled once. docs/configuration.md says what
/// each one does; ``EnvironmentSettings`` is the only reader.
package enum EnvironmentVariable: String, Sendable, CaseIterable {
    // Where crash reports go, and how (the service and `crashreport upload`).
    case sentryDSN = "SENTRY_DSN"
    case uploadURL = "CRASH_REPORTER_URL"
    case retryBaseSeconds = "CRASH_REPORTER_RETRY_BASE_SECONDS"
    case uploadTimeoutSeconds = "CRASH_REPORTER_UPLOAD_TIMEOUT_SECONDS"
    case sentryRelease = "SENTRY_RELEASE"
    case sentryEnvironment = "SENTRY_ENVIRONMENT"
    case disabled = "CRASH_REPORTER_DISABLED"

    // The crash-loop cap and retention bounds.
    case capCount = "CRASH_REPORTER_CAP_COUNT"
    case capWindowSeconds = "CRASH_REPORTER_CAP_WINDOW_SECONDS"
    case maxPendingReports = "CRASH_REPORTER_MAX_PENDING_REPORTS"
    case maxPendingBytes = "CRASH_REPORTER_MAX_PENDING_BYTES"
    case keepDays = "CRASH_REPORTER_KEEP_DAYS"

    // OpenTelemetry's own (opentelemetry.io/docs/specs/otel/protocol/exporter/).
    case otlpEndpoint = "OTEL_EXPORTER_OTLP_ENDPOINT"
    case otlpLogsEndpoint = "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT"
    case otlpHeaders = "OTEL_EXPORTER_OTLP_HEADERS"
    case otlpLogsHeaders = "OTEL_EXPORTER_OTLP_LOGS_HEADERS"
    case otlpProtocol = "OTEL_EXPORTER_OTLP_PROTOCOL"
    case otlpLogsProtocol = "OTEL_EXPORTER_OTLP_LOGS_PROTOCOL"
    case otelServiceName = "OTEL_SERVICE_NAME"
    case otelResourceAttributes = "OTEL_RESOURCE_ATTRIBUTES"
    case otelSDKDisabled = "OTEL_SDK_DISABLED"
    case otelLogsExporter = "OTEL_LOGS_EXPORTER"

    // What the service's reports say about it, and how it captures.
    case appName = "CRASH_REPORTER_APP_NAME"
    case appVersion = "CRASH_REPORTER_APP_VERSION"
    case appBuild = "CRASH_REPORTER_APP_BUILD"
    case hangTimeoutSeconds = "CRASH_REPORTER_HANG_TIMEOUT_SECONDS"
    case snapshotSignal = "CRASH_REPORTER_SNAPSHOT_SIGNAL"
    case runRecords = "CRASH_REPORTER_RUN_RECORDS"
    case watchExecutors = "CRASH_REPORTER_WATCH_EXECUTORS"
    case stderrCopy = "CRASH_REPORTER_STDERR"
    case terminationLog = "CRASH_REPORTER_TERMINATION_LOG"
    /// The fault the tests plant in the worker (`TestFault`).
    case testFault = "CRASH_REPORTER_TEST_FAULT"

    // Where the state directory is: named outright, else the platform's rule.
    case stateDirectory = "CRASH_REPORTER_DIR"
    case systemdStateDirectory = "STATE_DIRECTORY"
    case xdgStateHome = "XDG_STATE_HOME"
    case home = "HOME"

    // Symbolication.
    case debugDirectories = "CRASH_REPORTER_DEBUG_DIRS"
    /// Source path prefixes of the service's dependencies (`DependencyPaths`).
    case dependencyPaths = "CRASH_REPORTER_DEPENDENCY_PATHS"
    case path = "PATH"
    // debuginfod's own, as elfutils reads them (the tools; the service's worker only with
    // `CRASH_REPORTER_DEBUGINFOD`).
    case debuginfodURLs = "DEBUGINFOD_URLS"
    case debuginfodTimeout = "DEBUGINFOD_TIMEOUT"
    case debuginfodMaxSize = "DEBUGINFOD_MAXSIZE"
    case debuginfodCachePath = "DEBUGINFOD_CACHE_PATH"
    case xdgCacheHome = "XDG_CACHE_HOME"
    case workerDebuginfod = "CRASH_REPORTER_DEBUGINFOD"

    // The HTTP client: proxies and trust store, read as curl and OpenSSL read them.
    case httpProxy = "http_proxy"
    case httpProxyUppercase = "HTTP_PROXY"
    case httpsProxy = "https_proxy"
    case httpsProxyUppercase = "HTTPS_PROXY"
    case noProxy = "no_proxy"
    case noProxyUppercase = "NO_PROXY"
    case sslCertFile = "SSL_CERT_FILE"
    case sslCertDirectory = "SSL_CERT_DIR"

    // The analytics providers.
    case eventsAPIURL = "EVENTS_API_URL"
    case eventsWriteKey = "EVENTS_WRITE_KEY"
    case telemetryDeckURL = "TELEMETRYDECK_URL"
    case telemetryDeckAppID = "TELEMETRYDECK_APP_ID"
    case postHogHost = "POSTHOG_HOST"
    case postHogAPIKey = "POSTHOG_API_KEY"
    case localeAll = "LC_ALL"
    case localeMessages = "LC_MESSAGES"
    case language = "LANG"

    // crash-collector.
    /// The collector's planted failures (`N STATUS`), for the tests.
    case collectorFailNext = "CRASH_COLLECTOR_FAIL_NEXT"

    /// The name as it is set (`SENTRY_DSN`): what errors blame.
    package var name: String { rawValue }
}
