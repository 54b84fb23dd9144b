/// How the crash reporter is set up. Every field has a default; environment variables fill
/// in what the code leaves out (see `docs/configuration.md`).
public struct Options: Sendable {
    /// The service's name: names the state directory and goes into every report.
    /// Defaults to the executable's file name.
    public var appName: String?
    /// The service's version, e.g. `1.4.2` (`CRASH_REPORTER_APP_VERSION`, `SENTRY_RELEASE`).
    public var appVersion: String?
    /// A build number or commit.
    public var appBuild: String?
    /// `production`, `staging`, … (`SENTRY_ENVIRONMENT`); defaults to `production`.
    public var environment: String?
    /// Where pending reports and the stored choices live. When nil: `CRASH_REPORTER_DIR`,
    /// else `$STATE_DIRECTORY`, `$XDG_STATE_HOME` or `~/.local/state` with the app's name below.
    public var stateDirectory: String?
    /// How many breadcrumbs the ring keeps (the newest ones). 0 turns breadcrumbs off.
    public var breadcrumbCapacity: Int
    /// Sentry DSN (`SENTRY_DSN`): reports go to its envelope endpoint.
    public var sentryDSN: String?
    /// A plain HTTP endpoint (`CRASH_REPORTER_URL`), e.g. the collector's `/api/reports`.
    public var uploadURL: String?
    /// First retry delay in seconds, doubled per attempt (`CRASH_REPORTER_RETRY_BASE_SECONDS`).
    public var retryBaseDelay: Double?
    /// Delivered reports kept in `<state>/delivered` for local review.
    public var keepDelivered: Int
    /// Whether `start` begins delivering pending reports in the background at once. A service
    /// that runs `CrashReporterService` (swift-service-lifecycle) can leave it to the service
    /// group instead; `CrashReporter.startDelivery()` begins it at any time.
    public var deliverAtStart: Bool

    public init(
        appName: String? = nil,
        appVersion: String? = nil,
        appBuild: String? = nil,
        environment: String? = nil,
        stateDirectory: String? = nil,
        breadcrumbCapacity: Int = 100,
        sentryDSN: String? = nil,
        uploadURL: String? = nil,
        retryBaseDelay: Double? = nil,
        keepDelivered: Int = 20,
        deliverAtStart: Bool = true
    ) {
        self.appName = appName
        self.appVersion = appVersion
        self.appBuild = appBuild
        self.environment = environment
        self.stateDirectory = stateDirectory
        self.breadcrumbCapacity = breadcrumbCapacity
        self.sentryDSN = sentryDSN
        self.uploadURL = uploadURL
        self.retryBaseDelay = retryBaseDelay
        self.keepDelivered = keepDelivered
        self.deliverAtStart = deliverAtStart
    }
}
