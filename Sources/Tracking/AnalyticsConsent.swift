import Foundation

/// The product-analytics choice: off until the user opts in. Stored in its own file,
/// `<state>/analytics.consent`, never in the crash-reporting one, and never sent anywhere.
public enum AnalyticsConsent: String, Sendable, Equatable, CaseIterable {
    /// The user was never asked (no file): treated as denied.
    case unknown
    case granted
    case denied

    /// The stored choice for a state directory (`unknown` without a readable file).
    public static func stored(stateDirectory: String) -> AnalyticsConsent {
        ConsentFile.read(stateDirectory: stateDirectory).consent
    }
}

/// `<state>/analytics.consent`: one line, `granted 3` or `denied 3`, the number being the
/// epoch of the last grant so that a later grant gets a higher one even after a restart.
enum ConsentFile {
    static let fileName = "analytics.consent"

    struct Record: Equatable {
        var consent: AnalyticsConsent
        var epoch: UInt64
    }

    package static func path(_ stateDirectory: String) -> String { stateDirectory + "/" + fileName }

    /// A missing, unreadable or damaged file reads as `unknown`: nothing is sent without a
    /// clear grant.
    static func read(stateDirectory: String) -> Record {
        guard let data = FileManager.default.contents(atPath: path(stateDirectory)),
            let text = String(data: data, encoding: .utf8)
        else { return Record(consent: .unknown, epoch: 0) }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard words.count == 2, let epoch = UInt64(words[1]) else { return Record(consent: .unknown, epoch: 0) }
        switch words[0] {
        case "granted" where epoch > 0: return Record(consent: .granted, epoch: epoch)
        case "denied": return Record(consent: .denied, epoch: epoch)
        default: return Record(consent: .unknown, epoch: 0)
        }
    }

    static func write(_ record: Record, stateDirectory: String) throws {
        precondition(record.consent != .unknown, "unknown is the absence of a choice")
        try Files.makeDirectory(stateDirectory)
        try Files.writeAtomically(
            Data("\(record.consent.rawValue) \(record.epoch)\n".utf8), to: path(stateDirectory), durable: true)
    }
}

/// `<state>/analytics/`: everything analytics stores besides the choice (install id, queue).
/// It exists only while consent is granted.
package enum AnalyticsDirectory {
    package static func path(_ stateDirectory: String) -> String { stateDirectory + "/analytics" }
    package static func installIDPath(_ stateDirectory: String) -> String { path(stateDirectory) + "/install-id" }
    package static func queuePath(_ stateDirectory: String) -> String { path(stateDirectory) + "/events.queue" }

    package static func purge(_ stateDirectory: String) {
        let dir = path(stateDirectory)
        if FileManager.default.fileExists(atPath: dir) {
            try? FileManager.default.removeItem(atPath: dir)
        }
    }

    package static func readInstallID(_ stateDirectory: String) -> String? {
        guard let data = FileManager.default.contents(atPath: installIDPath(stateDirectory)),
            let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            UUID(uuidString: text) != nil
        else { return nil }
        return text
    }

    package static func createInstallID(_ stateDirectory: String) throws -> String {
        let id = UUID().uuidString
        try Files.makeDirectory(path(stateDirectory))
        try Files.writeAtomically(Data((id + "\n").utf8), to: installIDPath(stateDirectory), durable: true)
        return id
    }
}

/// Small file helpers (the crash reporter's own are internal to its module).
package enum Files {
    package struct Failure: Error, CustomStringConvertible {
        package var path: String
        package var code: Int32
        package init(path: String, code: Int32) {
            self.path = path
            self.code = code
        }
        package var description: String { "cannot write \(path) (errno \(code))" }
    }

    package static func makeDirectory(_ path: String) throws {
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// Readers see the old content or the new, never half: the bytes go to `<path>.tmp-<pid>`,
    /// which is then renamed over `path`. (FileManager's own atomic write leaves its temporary
    /// file behind when the process is killed in the middle; this one is named so the queue can
    /// find and remove it.) `durable` also syncs the file to disk before the rename, for the
    /// stored choices; the queue, rewritten often, skips it.
    package static func writeAtomically(_ data: Data, to path: String, durable: Bool = false) throws {
        let tmp = path + ".tmp-\(getpid())"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        if fd < 0 { throw Failure(path: tmp, code: errno) }
        var failure: Int32 = 0
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += n
            }
        }
        if failure == 0 && durable && fsync(fd) != 0 { failure = errno }
        if close(fd) != 0 && failure == 0 { failure = errno }
        if failure != 0 {
            unlink(tmp)
            throw Failure(path: tmp, code: failure)
        }
        if rename(tmp, path) != 0 {
            let code = errno
            unlink(tmp)
            throw Failure(path: path, code: code)
        }
    }
}
