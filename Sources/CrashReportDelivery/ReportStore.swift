import Foundation

/// The reports of one state directory:
///
/// ```
/// pending/<id>.crash            waiting to be sent (or read with crashreport)
/// pending/<id>.delivery         its retry state (attempts, next attempt), when it has one
/// delivered/<id>.crash          accepted by a server; the newest `keepDelivered` are kept
/// rejected/<id>.crash           refused for good, or damaged
/// rejected/<id>.reason          why, as JSON: status, reason, time
/// ```
public struct ReportStore: Sendable {
    public let stateDirectory: URL
    public var keepDelivered: Int

    public init(stateDirectory: URL, keepDelivered: Int = 20) {
        self.stateDirectory = stateDirectory
        self.keepDelivered = keepDelivered
    }

    public var pending: URL { stateDirectory.appendingPathComponent("pending") }
    public var delivered: URL { stateDirectory.appendingPathComponent("delivered") }
    public var rejected: URL { stateDirectory.appendingPathComponent("rejected") }

    /// Pending reports, oldest first (by file time, then name).
    public func pendingReports() -> [URL] { Self.reports(in: pending) }

    public static func reports(in directory: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let urls = names.filter { $0.hasSuffix(".crash") }.map { directory.appendingPathComponent($0) }
        let dated = urls.map { ($0, modificationTime($0)) }
        return dated.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0.lastPathComponent < $1.0.lastPathComponent }.map(\.0)
    }

    static func modificationTime(_ url: URL) -> Date {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date) ?? .distantPast
    }

    /// The id a file name carries (`<id>.crash`).
    public static func id(of url: URL) -> String {
        String(url.lastPathComponent.dropLast(".crash".count))
    }

    // MARK: retry state

    func stateURL(id: String) -> URL { pending.appendingPathComponent("\(id).delivery") }

    public func state(id: String) -> DeliveryState {
        guard let data = try? Data(contentsOf: stateURL(id: id)),
            let state = try? Self.decoder.decode(DeliveryState.self, from: data)
        else { return DeliveryState() }
        return state
    }

    public func save(_ state: DeliveryState, id: String) throws {
        try AtomicFile.write(Self.encoder.encode(state), to: stateURL(id: id))
    }

    // MARK: moves

    /// Moves a delivered report to `delivered/` and prunes the oldest beyond `keepDelivered`.
    public func markDelivered(_ url: URL) throws {
        let id = Self.id(of: url)
        try ensure(delivered)
        try move(url, to: delivered.appendingPathComponent(url.lastPathComponent))
        try? FileManager.default.removeItem(at: stateURL(id: id))
        let kept = Self.reports(in: delivered)
        for old in kept.dropLast(Swift.max(keepDelivered, 0)) { try? FileManager.default.removeItem(at: old) }
    }

    /// Moves a report to `rejected/` with the reason beside it.
    public func markRejected(_ url: URL, status: Int?, reason: String, now: Date = Date()) throws {
        let id = Self.id(of: url)
        try ensure(rejected)
        let note = RejectionNote(status: status, reason: reason, at: now)
        try AtomicFile.write(Self.encoder.encode(note), to: rejected.appendingPathComponent("\(id).reason"))
        try move(url, to: rejected.appendingPathComponent(url.lastPathComponent))
        try? FileManager.default.removeItem(at: stateURL(id: id))
    }

    /// Deletes every pending report and its retry state (the user opted out).
    public func deletePending() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: pending.path)) ?? []
        for name in names where name.hasSuffix(".crash") || name.hasSuffix(".delivery") || name.hasSuffix(".crash.tmp")
        {
            try? FileManager.default.removeItem(at: pending.appendingPathComponent(name))
        }
    }

    /// Deletes `.crash.tmp` files older than a minute: a handler that died mid-write left
    /// them, and no reader ever takes them for reports. Younger ones may still be written by
    /// another process of the same service that is crashing right now.
    public func deleteStaleTemporaryFiles(now: Date = Date()) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: pending.path)) ?? []
        for name in names where name.hasSuffix(".crash.tmp") {
            let url = pending.appendingPathComponent(name)
            if now.timeIntervalSince(Self.modificationTime(url)) > 60 { try? FileManager.default.removeItem(at: url) }
        }
    }

    public func rejection(id: String) -> RejectionNote? {
        guard let data = try? Data(contentsOf: rejected.appendingPathComponent("\(id).reason")) else { return nil }
        return try? Self.decoder.decode(RejectionNote.self, from: data)
    }

    private func ensure(_ directory: URL) throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    private func move(_ from: URL, to: URL) throws {
        if rename(from.path, to.path) != 0 { throw DeliveryError.cannotMove(from.path, errno: errno) }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}

/// Why a report was rejected.
public struct RejectionNote: Codable, Sendable, Equatable {
    public var status: Int?
    public var reason: String
    public var at: Date

    public init(status: Int?, reason: String, at: Date) {
        self.status = status
        self.reason = reason
        self.at = at
    }
}

/// A file-system failure while moving reports around.
public enum DeliveryError: Error, CustomStringConvertible, Equatable {
    case cannotMove(String, errno: Int32)
    case cannotWrite(String, errno: Int32)
    case locked(String)

    public var description: String {
        switch self {
        case .cannotMove(let path, let code): return "cannot move \(path): \(String(cString: strerror(code)))"
        case .cannotWrite(let path, let code): return "cannot write \(path): \(String(cString: strerror(code)))"
        case .locked(let path): return "another process is delivering the reports of \(path)"
        }
    }
}
