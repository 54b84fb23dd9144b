/// Every default value of the service's and the tools' settings, once: `Options`, the
/// environment's readers (`DeliveryConfiguration`, `DeliveryLimits`, `DeliveryPolicy`), the
/// command-line help and the docs' tables (checked by `ConfigurationDefaultsDocsTests`) read
/// them here. Lengths of time are `Duration`s
/// (docs/decisions/0170-defaults-live-in-one-table-and-durations-are-duration.md).
/// The ones `Options.init`'s default arguments name are `@usableFromInline`, as a public
/// function's default argument must be.
@usableFromInline package enum ConfigurationDefaults {
    // MARK: Recording

    /// Breadcrumbs the ring keeps (`Options.breadcrumbCapacity`).
    @usableFromInline package static let breadcrumbCapacity = 100
    /// Other threads a report shows at most (`Options.maxThreads`).
    @usableFromInline package static let maxThreads = 256
    /// Frames kept of each other thread (`Options.maxFramesPerThread`).
    @usableFromInline package static let maxFramesPerThread = 64
    /// How long a capture waits for the other threads (`Options.threadCaptureTimeout`).
    @usableFromInline package static let threadCaptureTimeout = Duration.milliseconds(100)
    /// How late a heartbeat may be before a hang report (`CRASH_REPORTER_HANG_TIMEOUT_SECONDS`).
    package static let hangTimeout = Duration.seconds(10)
    /// The environment's name when none is given (`SENTRY_ENVIRONMENT`).
    package static let environmentName = "production"

    // MARK: Delivery

    /// Delivered reports kept in `delivered/` for local review (`Options.keepDelivered`).
    @usableFromInline package static let keepDelivered = 20
    /// The first retry's delay, doubled per attempt (`CRASH_REPORTER_RETRY_BASE_SECONDS`).
    package static let retryBaseDelay = Duration.seconds(30)
    /// The longest delay the doubling reaches.
    package static let retryMaximumDelay = Duration.seconds(6 * 3600)
    /// The longest wait a server's `Retry-After` is honoured for.
    package static let retryMaximumServerDelay = Duration.seconds(24 * 3600)
    /// The fraction of a delay added or removed at random (0.2: ±20 %).
    package static let retryJitter = 0.2
    /// Attempts made before a report is rejected.
    package static let retryMaximumAttempts = 30
    /// How long a report is retried before it is rejected.
    package static let retryMaximumAge = Duration.days(30)
    /// How long one upload's whole exchange may take (`CRASH_REPORTER_UPLOAD_TIMEOUT_SECONDS`).
    package static let uploadTimeout = Duration.seconds(30)
    /// The shortest upload timeout used: a zero deadline could never be met.
    package static let minimumUploadTimeout = Duration.milliseconds(100)

    // MARK: Crash loops and retention (docs/crash-loops.md)

    /// Full reports of one signature sent per window; 0: no cap (`CRASH_REPORTER_CAP_COUNT`).
    package static let capCount = 5
    /// The cap's window (`CRASH_REPORTER_CAP_WINDOW_SECONDS`).
    package static let capWindow = Duration.seconds(3600)
    /// Unsent reports kept in `pending/` and in `withheld/` each (`CRASH_REPORTER_MAX_PENDING_REPORTS`).
    package static let maxPendingReports = 100
    /// Their bytes, in each folder (`CRASH_REPORTER_MAX_PENDING_BYTES`): 50 MiB.
    package static let maxPendingBytes = 50 << 20
    /// How long `delivered/`, `rejected/` and `withheld/` keep a report (`CRASH_REPORTER_KEEP_DAYS`).
    package static let retention = Duration.days(30)
}
