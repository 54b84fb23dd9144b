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

    var pendingDirectory: String { StateDirectory.pending(stateDirectory) }

    init(options: Options, environment: [String: String]) throws {
        let name = options.appName ?? environment["CRASH_REPORTER_APP_NAME"] ?? ProcessInfo.processInfo.processName
        appName = name
        appVersion = options.appVersion ?? environment["CRASH_REPORTER_APP_VERSION"] ?? environment["SENTRY_RELEASE"] ?? ""
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
    }
}
