import CrashReporterSupport

/// `<state>/analytics.consent`: one line, `granted 3` or `denied 3`, the number being the
/// epoch of the last grant so that a later grant gets a higher one even after a restart.
enum ConsentFile {
    /// Far more than the longest valid line (`granted 18446744073709551615\n`); a larger file
    /// is damaged and reads as `unknown`.
    static let maxBytes = 4096

    struct Record: Equatable {
        var consent: AnalyticsConsent
        var epoch: UInt64
    }

    static func path(_ stateDirectory: String) -> String { StateLayout(stateDirectory).analyticsConsent }

    /// A missing, unreadable or damaged file reads as `unknown`: nothing is sent without a
    /// clear grant.
    static func read(stateDirectory: String) -> Record {
        guard let bytes = try? FileSystem.read(path(stateDirectory), limit: maxBytes) else {
            return Record(consent: .unknown, epoch: 0)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard words.count == 2, let epoch = UInt64(words[1]) else { return Record(consent: .unknown, epoch: 0) }
        switch words[0] {
        case "granted" where epoch > 0: return Record(consent: .granted, epoch: epoch)
        case "denied": return Record(consent: .denied, epoch: epoch)
        default: return Record(consent: .unknown, epoch: 0)
        }
    }

    /// Stores the choice durably (synced, then renamed into place, the directory synced), so
    /// that a crash or power cut leaves the old choice or the new one, never half a file.
    static func write(_ record: Record, stateDirectory: String) throws(FileError) {
        precondition(record.consent != .unknown, "unknown is the absence of a choice")
        try FileSystem.createDirectory(stateDirectory)
        try FileSystem.writeAtomically(
            Array("\(record.consent.rawValue) \(record.epoch)\n".utf8), to: path(stateDirectory), durable: true)
    }
}
