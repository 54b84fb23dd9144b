import CrashReporterSupport

/// The product-analytics choice: off until the user opts in. Stored in its own file,
/// `<state>/analytics.consent`, never in the crash-reporting one, and never sent anywhere.
public enum AnalyticsConsent: String, Sendable, Equatable, CaseIterable {
    /// The user was never asked (no file): treated as denied.
    case unknown
    /// The user opted in: events reach the providers.
    case granted
    /// The user opted out: events are breadcrumbs only, and nothing of analytics is kept.
    case denied

    /// The stored choice for a state directory (`unknown` without a readable file).
    public static func stored(stateDirectory: String) -> AnalyticsConsent {
        storedRecord(stateDirectory: stateDirectory).consent
    }

    /// The stored choice and its epoch (`ConsentFiles` owns the file): `unknown` and 0 without
    /// a readable file, so that nothing is sent without a clear grant.
    static func storedRecord(stateDirectory: String) -> (consent: AnalyticsConsent, epoch: UInt64) {
        guard let record = ConsentFiles.analytics(stateDirectory: stateDirectory) else { return (.unknown, 0) }
        return (record.granted ? .granted : .denied, record.epoch)
    }

    /// Stores this choice, granted or denied, with its epoch; `unknown` is the absence of a choice.
    func store(epoch: UInt64, stateDirectory: String) throws(FileError) {
        precondition(self != .unknown, "unknown is the absence of a choice")
        try ConsentFiles.storeAnalytics(.init(granted: self == .granted, epoch: epoch), stateDirectory: stateDirectory)
    }
}
