import CrashReportDelivery
import CrashReporterSupport

/// `Options` with the environment's values filled in and checked. The delivery settings
/// (destination, retry delay, upload timeout, the operator's off switch) are read by
/// `DeliveryConfiguration`, the same reader as `crashreport upload`'s, so that both accept and
/// refuse the same values with the same message.
struct ResolvedConfiguration: Sendable {
    var appName: String
    var appVersion: String
    var appBuild: String
    var environmentName: String
    var stateDirectory: String
    var homeDirectory: String
    var breadcrumbCapacity: Int
    var delivery: DeliveryConfiguration
    var keepDelivered: Int

    var pendingDirectory: String { StateDirectory.pending(stateDirectory) }

    init(options: Options, environment: [String: String]) throws(CrashReporterError) {
        let name = options.appName ?? environment["CRASH_REPORTER_APP_NAME"] ?? ProcessEnvironment.processName
        appName = name
        appVersion =
            options.appVersion ?? environment["CRASH_REPORTER_APP_VERSION"]
            ?? DeliveryConfiguration.release(environment: environment) ?? ""
        appBuild = options.appBuild ?? environment["CRASH_REPORTER_APP_BUILD"] ?? ""
        environmentName =
            options.environment ?? DeliveryConfiguration.sentryEnvironment(environment: environment) ?? "production"
        let dir = StateDirectory.resolve(appName: name, explicit: options.stateDirectory, environment: environment)
        guard dir.hasPrefix("/") else {
            throw .invalidOption("the state directory must be an absolute path: \(dir)")
        }
        stateDirectory = dir
        homeDirectory = StateDirectory.homeDirectory(environment: environment)
        guard (0...4096).contains(options.breadcrumbCapacity) else {
            throw .invalidOption("breadcrumbCapacity must be between 0 and 4096")
        }
        breadcrumbCapacity = options.breadcrumbCapacity
        do {
            delivery = try DeliveryConfiguration(
                environment: environment,
                sentryDSN: options.sentryDSN.map { .init($0, name: "Options.sentryDSN") },
                uploadURL: options.uploadURL.map { .init($0, name: "Options.uploadURL") },
                retryBaseDelay: options.retryBaseDelay.map { .init($0, name: "Options.retryBaseDelay") })
        } catch {
            throw .invalidOption(error.description)
        }
        keepDelivered = max(0, options.keepDelivered)
    }
}
