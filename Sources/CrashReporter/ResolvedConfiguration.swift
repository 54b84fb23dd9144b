import CrashReportDelivery
import CrashReportFormat
import CrashReportSentry
import Foundation

/// `Options` with the environment's values filled in and checked.
struct ResolvedConfiguration: Sendable {
    var appName: String
    var appVersion: String
    var appBuild: String
    var environmentName: String
    var stateDirectory: String
    var homeDirectory: String
    var breadcrumbCapacity: Int
    var sentryDSN: SentryDSN?
    var uploadURL: URL?
    var policy: DeliveryPolicy
    var keepDelivered: Int
    /// Seconds an upload may take (`CRASH_REPORTER_UPLOAD_TIMEOUT_SECONDS`, default 30).
    var uploadTimeout: TimeInterval

    var pendingDirectory: String { StateDirectory.pending(stateDirectory) }

    init(options: Options, environment: [String: String]) throws {
        let name = options.appName ?? environment["CRASH_REPORTER_APP_NAME"] ?? ProcessInfo.processInfo.processName
        appName = name
        appVersion =
            options.appVersion ?? environment["CRASH_REPORTER_APP_VERSION"] ?? environment["SENTRY_RELEASE"] ?? ""
        appBuild = options.appBuild ?? environment["CRASH_REPORTER_APP_BUILD"] ?? ""
        environmentName = options.environment ?? environment["SENTRY_ENVIRONMENT"] ?? "production"
        let dir = StateDirectory.resolve(appName: name, explicit: options.stateDirectory, environment: environment)
        guard dir.hasPrefix("/") else {
            throw CrashReporterError.invalidOption("the state directory must be an absolute path: \(dir)")
        }
        stateDirectory = dir
        homeDirectory = StateDirectory.homeDirectory(environment: environment)
        guard (0...4096).contains(options.breadcrumbCapacity) else {
            throw CrashReporterError.invalidOption("breadcrumbCapacity must be between 0 and 4096")
        }
        breadcrumbCapacity = options.breadcrumbCapacity
        if let text = Self.nonEmpty(options.sentryDSN ?? environment["SENTRY_DSN"]) {
            do {
                sentryDSN = try SentryDSN(text)
            } catch {
                throw CrashReporterError.invalidOption("invalid Sentry DSN: \(error)")
            }
        }
        if let text = Self.nonEmpty(options.uploadURL ?? environment["CRASH_REPORTER_URL"]) {
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? "") else {
                throw CrashReporterError.invalidOption("the upload URL must be http(s): \(text)")
            }
            uploadURL = url
        }
        policy = DeliveryPolicy()
        let base = options.retryBaseDelay ?? environment["CRASH_REPORTER_RETRY_BASE_SECONDS"].flatMap(Double.init)
        if let base {
            guard base >= 0 else { throw CrashReporterError.invalidOption("the retry delay must not be negative") }
            policy.baseDelay = base
        }
        keepDelivered = max(0, options.keepDelivered)
        uploadTimeout =
            environment["CRASH_REPORTER_UPLOAD_TIMEOUT_SECONDS"].flatMap(Double.init).map { max($0, 0.1) } ?? 30
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return text
    }
}
