/// The package's version, sent as the client's name and version (`User-Agent:
/// swift-crash-reporter/0.1.0`, Sentry's `sentry_client` and `sdk`).
package enum CrashReportVersion {
    package static let current = "0.1.0"

    /// The client's name in `User-Agent` and in Sentry's `sdk`.
    package static let clientName = "swift-crash-reporter"

    /// `swift-crash-reporter/0.1.0`.
    package static var userAgent: String { "\(clientName)/\(current)" }
}
