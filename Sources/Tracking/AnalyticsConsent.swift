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
        ConsentFile.read(stateDirectory: stateDirectory).consent
    }
}
