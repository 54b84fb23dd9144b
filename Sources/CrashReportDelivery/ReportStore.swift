import CrashReporterSupport

/// The reports of one state directory: `pending/` (with their retry states and the sessions),
/// `delivered/` (the newest `keepDelivered` are kept), `rejected/` (with why) and `withheld/`,
/// at the paths `StateLayout` gives (docs/configuration.md, "The state directory", draws them).
///
/// Each folder is an `OutboxFolder` (the outboxes' one folder queue); the store keeps only what
/// is the crash reports' own: the sessions beside them, the withheld folder of the crash-loop
/// cap, and what a handler could not finish. Paths are plain strings; the folders are made with
/// mode 0700 when first needed.
package struct ReportStore: Sendable {
    package let stateDirectory: String
    package var keepDelivered: Int

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

    /// The four folders of reports, each an `OutboxFolder` of `.crash` files: every move of a
    /// report between them goes through the folder queue.
    package var pendingFolder: OutboxFolder { folder(pending) }
    package var deliveredFolder: OutboxFolder { folder(delivered) }
    package var rejectedFolder: OutboxFolder { folder(rejected) }
    package var withheldFolder: OutboxFolder { folder(withheld) }

    /// The folder of `.crash` files at `directory`.
    package static func reportFolder(_ directory: String) -> OutboxFolder {
        OutboxFolder(directory: directory, itemSuffix: StateLayout.Suffix.report)
    }

    func folder(_ directory: String) -> OutboxFolder { Self.reportFolder(directory) }

    /// The folder a report's path lies in.
    func folder(holding path: String) -> OutboxFolder { folder(FileSystem.parentDirectory(path)) }

    /// Pending reports, oldest first (by file time, then name).
    package func pendingReports() -> [String] { pendingFolder.items() }

    /// Whether a report waits in `pending/`: one directory listing, no file is looked at (what
    /// `start` asks before it starts a worker).
    package var hasPendingReports: Bool { pendingFolder.hasItems }

    /// The `.crash` files of a folder, oldest first (by file time, then name); none when the
    /// folder does not exist.
    package static func reports(in directory: String) -> [String] { reportFolder(directory).items() }

    /// The id a file name carries (`<id>.crash`).
    package static func id(of path: String) -> String { reportFolder("").id(of: path) }

    // MARK: retry state

    func statePath(id: String) -> String { pendingFolder.statePath(of: id) }

    /// The retry state of a report: a fresh one when it has none, or when its file cannot be
    /// read (then the report is retried as if new, which loses at most its backoff).
    package func state(id: String) -> DeliveryState { pendingFolder.state(of: id) }

    package func save(_ state: DeliveryState, id: String) throws { try pendingFolder.save(state, for: id) }

    // MARK: moves

    /// Moves a delivered report (pending, or a withheld one sent as a summary) to `delivered/`
    /// and prunes the oldest beyond `keepDelivered`.
    package func markDelivered(_ path: String) throws(FileError) {
        try folder(holding: path).move(Self.id(of: path), to: deliveredFolder, keepingNewest: keepDelivered)
    }

    /// Moves a report held back by the cap to `withheld/`.
    package func markWithheld(_ path: String) throws(FileError) {
        try folder(holding: path).move(Self.id(of: path), to: withheldFolder)
    }

    /// Moves a report to `rejected/<id>.crash` (`id`: the one its name carries unless given) with
    /// the reason beside it.
    package func markRejected(
        _ path: String, id given: String? = nil, status: Int?, reason: String, now: Timestamp = .now()
    ) throws {
        let id = given ?? Self.id(of: path)
        try folder(holding: path).setAside(
            id, file: path, into: rejectedFolder, note: RejectionNote(status: status, reason: reason, at: now))
    }

    /// Deletes every pending report, its retry state, what writers killed mid-write left, the
    /// sessions, and the reports the crash-loop cap withheld (the user opted out).
    package func deletePending() {
        withheldFolder.deleteAll()
        pendingFolder.deleteAll { name in
            name.hasSuffix(StateLayout.Suffix.session) || Self.isTemporary(name) || name.contains(Self.failedMarker)
        }
    }

    /// Deletes temporary files older than a minute: `.crash.tmp` files a handler that died
    /// mid-write left (no reader ever takes them for reports), and retry states a killed
    /// writer left. Younger ones may still be written by another process of the same service
    /// that is crashing right now.
    package func deleteStaleTemporaryFiles(now: Timestamp = .now()) {
        pendingFolder.deleteStaleTemporaryFiles(olderThan: .seconds(60), now: now, alsoTemporary: Self.isTemporary)
    }

    /// The crash handler's `.crash.tmp` files and the atomic writer's temporary files.
    static func isTemporary(_ name: String) -> Bool {
        name.hasSuffix(StateLayout.Suffix.temporaryReport) || FileSystem.isTemporaryName(name)
    }

    /// Why a report was rejected; nil when it was not, or the note cannot be read.
    package func rejection(id: String) -> RejectionNote? { rejectedFolder.note(of: id) }
}
