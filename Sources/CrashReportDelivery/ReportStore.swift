import CrashReporterSupport

/// The reports of one state directory: `pending/` (with their retry states and the sessions),
/// `delivered/` (the newest `keepDelivered` are kept), `rejected/` (with why) and `withheld/`,
/// at the paths `StateLayout` gives (docs/configuration.md, "The state directory", draws them).
///
/// Paths are plain strings; the folders are made with mode 0700 when first needed.
package struct ReportStore: Sendable {
    package let stateDirectory: String
    package var keepDelivered: Int

    /// A retry state or rejection note larger than this is not one of ours.
    static let noteSizeLimit = 64 << 10

    package init(stateDirectory: String, keepDelivered: Int = 20) {
        self.stateDirectory = stateDirectory
        self.keepDelivered = keepDelivered
    }

    /// Where everything of the state directory is.
    package var layout: StateLayout { StateLayout(stateDirectory) }
    package var pending: String { layout.pending }
    package var delivered: String { layout.delivered }
    package var rejected: String { layout.rejected }
    /// Reports held back by the crash-loop cap (docs/crash-loops.md).
    package var withheld: String { layout.withheld }

    /// Pending reports, oldest first (by file time, then name).
    package func pendingReports() -> [String] { Self.reports(in: pending) }

    /// Whether a report waits in `pending/`: one directory listing, no file is looked at (what
    /// `start` asks before it starts a worker).
    package var hasPendingReports: Bool {
        ((try? FileSystem.contentsOfDirectory(pending)) ?? []).contains { $0.hasSuffix(StateLayout.Suffix.report) }
    }

    /// The `.crash` files of a folder, oldest first (by file time, then name); none when the
    /// folder does not exist.
    package static func reports(in directory: String) -> [String] {
        let names = (try? FileSystem.contentsOfDirectory(directory)) ?? []
        let dated = names.filter { $0.hasSuffix(StateLayout.Suffix.report) }.map { name in
            let path = directory + "/" + name
            return (path: path, time: FileSystem.modificationTime(path) ?? -.infinity)
        }
        return dated.sorted { $0.time != $1.time ? $0.time < $1.time : $0.path < $1.path }.map(\.path)
    }

    /// The id a file name carries (`<id>.crash`).
    package static func id(of path: String) -> String {
        let name = fileName(path)
        let suffix = StateLayout.Suffix.report
        return name.hasSuffix(suffix) ? String(name.dropLast(suffix.count)) : name
    }

    /// The last component of a path.
    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    // MARK: retry state

    func statePath(id: String) -> String { layout.deliveryState(id: id) }

    /// The retry state of a report: a fresh one when it has none, or when its file cannot be
    /// read (then the report is retried as if new, which loses at most its backoff).
    package func state(id: String) -> DeliveryState {
        guard let bytes = try? FileSystem.read(statePath(id: id), limit: Self.noteSizeLimit),
            let state = try? JSON.decode(DeliveryState.self, from: bytes)
        else { return DeliveryState() }
        return state
    }

    package func save(_ state: DeliveryState, id: String) throws {
        try FileSystem.writeAtomically(JSON.encode(state), to: statePath(id: id))
    }

    // MARK: moves

    /// Moves a delivered report to `delivered/` and prunes the oldest beyond `keepDelivered`.
    package func markDelivered(_ path: String) throws(FileError) {
        try FileSystem.createDirectory(delivered)
        try FileSystem.rename(path, to: delivered + "/" + Self.fileName(path))
        _ = try? FileSystem.remove(statePath(id: Self.id(of: path)))
        for old in Self.reports(in: delivered).dropLast(Swift.max(keepDelivered, 0)) {
            _ = try? FileSystem.remove(old)
        }
    }

    /// Moves a report held back by the cap to `withheld/`.
    package func markWithheld(_ path: String) throws(FileError) {
        try FileSystem.createDirectory(withheld)
        try FileSystem.rename(path, to: withheld + "/" + Self.fileName(path))
        _ = try? FileSystem.remove(statePath(id: Self.id(of: path)))
    }

    /// Moves a report to `rejected/<id>.crash` (`id`: the one its name carries unless given) with
    /// the reason beside it.
    package func markRejected(
        _ path: String, id given: String? = nil, status: Int?, reason: String, now: Timestamp = .now()
    ) throws {
        let id = given ?? Self.id(of: path)
        try FileSystem.createDirectory(rejected)
        let note = RejectionNote(status: status, reason: reason, at: now)
        try FileSystem.writeAtomically(JSON.encode(note), to: layout.rejectionReason(id: id))
        try FileSystem.rename(path, to: StateLayout.report(id: id, in: rejected))
        _ = try? FileSystem.remove(statePath(id: id))
    }

    /// Deletes every pending report, its retry state, what writers killed mid-write left, and
    /// the reports the crash-loop cap withheld (the user opted out).
    package func deletePending() {
        for path in Self.reports(in: withheld) { _ = try? FileSystem.remove(path) }
        let names = (try? FileSystem.contentsOfDirectory(pending)) ?? []
        for name in names
        where name.hasSuffix(StateLayout.Suffix.report) || name.hasSuffix(StateLayout.Suffix.deliveryState)
            || name.hasSuffix(StateLayout.Suffix.session)
            || Self.isTemporary(name) || name.contains(Self.failedMarker)
        {
            _ = try? FileSystem.remove(pending + "/" + name)
        }
    }

    /// Deletes temporary files older than a minute: `.crash.tmp` files a handler that died
    /// mid-write left (no reader ever takes them for reports), and retry states a killed
    /// writer left. Younger ones may still be written by another process of the same service
    /// that is crashing right now.
    package func deleteStaleTemporaryFiles(now: Timestamp = .now()) {
        FileSystem.removeStaleTemporaryFiles(in: pending, olderThan: 60, now: now, where: Self.isTemporary)
    }

    /// The crash handler's `.crash.tmp` files and the atomic writer's temporary files.
    static func isTemporary(_ name: String) -> Bool {
        name.hasSuffix(StateLayout.Suffix.temporaryReport) || FileSystem.isTemporaryName(name)
    }

    /// Why a report was rejected; nil when it was not, or the note cannot be read.
    package func rejection(id: String) -> RejectionNote? {
        guard let bytes = try? FileSystem.read(layout.rejectionReason(id: id), limit: Self.noteSizeLimit) else {
            return nil
        }
        return try? JSON.decode(RejectionNote.self, from: bytes)
    }
}
