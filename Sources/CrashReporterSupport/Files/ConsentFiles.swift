/// The two consent files of a state directory, their formats owned here (their names are
/// `StateLayout`'s). Each choice has its own file and never touches the other's:
/// - `crash-reporting.consent`: `enabled` or `disabled`, absent until the user chooses;
/// - `analytics.consent`: one line, `granted 3` or `denied 3`, the number being the epoch of the
///   last grant, so that a later grant gets a higher one even after a restart.
///
/// What a choice means stays with its owner: `CrashReportingChoice` adds the operator's
/// override, and `Tracking`'s `AnalyticsConsent` is the analytics choice. A missing, unreadable
/// or damaged file reads as no choice. Both are written durably (synced, renamed into place, the
/// directory synced), so that a crash or power cut leaves the old choice or the new one.
package enum ConsentFiles {
    /// Far more than the longest valid content (`granted 18446744073709551615\n`); a larger file
    /// is damaged and reads as no choice.
    static let maxBytes = 4096

    // MARK: crash reporting

    /// The stored crash-reporting choice, nil when the user never chose (or the file is damaged).
    package static func crashReporting(stateDirectory: String) -> Bool? {
        guard let text = read(StateLayout(stateDirectory).crashReportingConsent) else { return nil }
        switch text.trimmingASCIIWhitespace() {
        case "enabled": return true
        case "disabled": return false
        default: return nil
        }
    }

    /// Stores the crash-reporting choice, creating the state directory when needed.
    package static func storeCrashReporting(enabled: Bool, stateDirectory: String) throws(FileError) {
        let text = enabled ? "enabled\n" : "disabled\n"
        try write(text, to: StateLayout(stateDirectory).crashReportingConsent, in: stateDirectory)
    }

    // MARK: analytics

    /// A stored analytics choice: granted or denied, with its epoch.
    package struct AnalyticsRecord: Sendable, Equatable {
        package var granted: Bool
        package var epoch: UInt64

        package init(granted: Bool, epoch: UInt64) {
            self.granted = granted
            self.epoch = epoch
        }
    }

    /// The stored analytics choice, nil when the user never chose (or the file is damaged; a
    /// grant's epoch is never 0).
    package static func analytics(stateDirectory: String) -> AnalyticsRecord? {
        guard let text = read(StateLayout(stateDirectory).analyticsConsent) else { return nil }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard words.count == 2, let epoch = UInt64(words[1]) else { return nil }
        switch words[0] {
        case "granted" where epoch > 0: return AnalyticsRecord(granted: true, epoch: epoch)
        case "denied": return AnalyticsRecord(granted: false, epoch: epoch)
        default: return nil
        }
    }

    /// Stores the analytics choice, creating the state directory when needed.
    package static func storeAnalytics(_ record: AnalyticsRecord, stateDirectory: String) throws(FileError) {
        let line = "\(record.granted ? "granted" : "denied") \(record.epoch)\n"
        try write(line, to: StateLayout(stateDirectory).analyticsConsent, in: stateDirectory)
    }

    // MARK: files

    private static func read(_ path: String) -> String? {
        guard let bytes = try? FileSystem.read(path, limit: maxBytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func write(_ text: String, to path: String, in stateDirectory: String) throws(FileError) {
        try FileSystem.createDirectory(stateDirectory)
        try FileSystem.writeAtomically(Array(text.utf8), to: path, durable: true)
    }
}
