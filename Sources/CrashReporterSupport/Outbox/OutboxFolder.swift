/// The outboxes' one durable queue: a folder of item files `<id><itemSuffix>`, each with an
/// optional retry state beside it (`<id>.delivery`, a `DeliveryState`) and, once set aside, a
/// note saying why (`<id>.reason`, a `RejectionNote`). The crash reports' `pending/`,
/// `delivered/`, `rejected/` and `withheld/` are four of them
/// (docs/decisions/0172-one-folder-queue-under-both-outboxes.md).
///
/// ```
/// <folder>/<id><itemSuffix>        one item, whole: added atomically, never seen half-written
/// <folder>/<id>.delivery           its retry state (JSON), until it leaves the folder
/// <folder>/<id>.reason             why it was set aside (JSON), in the folder it was set aside to
/// ```
///
/// Items are listed oldest first, by file time, then by name. A value only: the folder is
/// made (mode 0700) when an item first goes in, and two processes keep off each other's work
/// with a `DirectoryLock` held around a pass, not here.
package struct OutboxFolder: Sendable, Hashable {
    /// The folder.
    package let directory: String
    /// The ending of an item's file name (`.crash`).
    package let itemSuffix: String

    /// A retry state or reason note larger than this is not one of ours.
    static let sidecarSizeLimit = 64 << 10

    package init(directory: String, itemSuffix: String) {
        self.directory = directory
        self.itemSuffix = itemSuffix
    }

    // MARK: names

    /// `<folder>/<id><itemSuffix>`.
    package func path(of id: String) -> String { directory + "/" + id + itemSuffix }
    /// `<folder>/<id>.delivery`.
    package func statePath(of id: String) -> String { directory + "/" + id + StateLayout.Suffix.deliveryState }
    /// `<folder>/<id>.reason`.
    package func notePath(of id: String) -> String { directory + "/" + id + StateLayout.Suffix.rejectionReason }

    /// The id an item's path carries (`<id><itemSuffix>`); a name without the suffix whole.
    package func id(of path: String) -> String {
        let name = Self.fileName(path)
        return name.hasSuffix(itemSuffix) ? String(name.dropLast(itemSuffix.count)) : name
    }

    /// The last component of a path.
    package static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    // MARK: listing

    /// The items' paths, oldest first (by file time, then name); none when the folder does not
    /// exist.
    package func items() -> [String] {
        let names = (try? FileSystem.contentsOfDirectory(directory)) ?? []
        let dated = names.filter { $0.hasSuffix(itemSuffix) }.map { name in
            let path = directory + "/" + name
            return (path: path, time: FileSystem.modificationTime(path) ?? -.infinity)
        }
        return dated.sorted { $0.time != $1.time ? $0.time < $1.time : $0.path < $1.path }.map(\.path)
    }

    /// Whether an item is there: one directory listing, no file is looked at.
    package var hasItems: Bool {
        ((try? FileSystem.contentsOfDirectory(directory)) ?? []).contains { $0.hasSuffix(itemSuffix) }
    }

    // MARK: adding and removing

    /// Adds an item atomically (a reader sees it whole or not at all), replacing one of the same
    /// id. Returns its path.
    @discardableResult
    package func add(_ bytes: some Collection<UInt8>, id: String) throws(FileError) -> String {
        try FileSystem.createDirectory(directory)
        let path = path(of: id)
        try FileSystem.writeAtomically(bytes, to: path)
        return path
    }

    /// Removes an item with its retry state and its note. Returns whether the item was there.
    @discardableResult
    package func remove(_ id: String) -> Bool {
        let removed = (try? FileSystem.remove(path(of: id))) == true
        _ = try? FileSystem.remove(statePath(of: id))
        _ = try? FileSystem.remove(notePath(of: id))
        return removed
    }

    /// Removes the oldest items (with what lies beside them) beyond the newest `count`.
    package func keepNewest(_ count: Int) {
        for old in items().dropLast(Swift.max(count, 0)) { remove(id(of: old)) }
    }

    // MARK: retry state

    /// An item's retry state: a fresh one when it has none, or when its file cannot be read
    /// (then the item is retried as if new, which loses at most its back-off).
    package func state(of id: String) -> DeliveryState {
        guard let bytes = try? FileSystem.read(statePath(of: id), limit: Self.sidecarSizeLimit),
            let state = try? JSON.decode(DeliveryState.self, from: bytes)
        else { return DeliveryState() }
        return state
    }

    /// Keeps an item's retry state beside it, atomically.
    package func save(_ state: DeliveryState, for id: String) throws {
        try FileSystem.writeAtomically(JSON.encode(state), to: statePath(of: id))
    }

    /// Why an item of this folder was set aside; nil when it was not, or the note cannot be read.
    package func note(of id: String) -> RejectionNote? {
        guard let bytes = try? FileSystem.read(notePath(of: id), limit: Self.sidecarSizeLimit) else { return nil }
        return try? JSON.decode(RejectionNote.self, from: bytes)
    }
}
