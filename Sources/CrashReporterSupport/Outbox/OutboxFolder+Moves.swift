/// An item leaving its folder: moved to another (kept as delivered, held back), set aside with
/// why (refused or damaged, the one path for both), or deleted with everything of the folder.
/// Each move is a `rename(2)` within the state directory, so an item is in one folder or the
/// other, never in both nor lost; its retry state goes with the move.
extension OutboxFolder {
    /// Moves an item to `folder` under the same name, drops its retry state, and, with
    /// `keepingNewest`, removes the oldest items of `folder` beyond that many (the newest
    /// delivered reports kept for a look).
    package func move(_ id: String, to folder: OutboxFolder, keepingNewest: Int? = nil) throws(FileError) {
        try FileSystem.createDirectory(folder.directory)
        try FileSystem.rename(path(of: id), to: folder.path(of: id))
        _ = try? FileSystem.remove(statePath(of: id))
        if let keepingNewest { folder.keepNewest(keepingNewest) }
    }

    /// Sets an item aside into `folder` (`rejected/`) with why: the note `<id>.reason` is written
    /// first, then the file is moved beside it as `<id><itemSuffix>`, and the retry state is
    /// dropped. `file` is the item's path unless given (what a writer could not finish carries
    /// another name: `<id>.crash.failed-28`). When the note cannot be written the item stays.
    package func setAside(_ id: String, file: String? = nil, into folder: OutboxFolder, note: RejectionNote) throws {
        try FileSystem.createDirectory(folder.directory)
        try FileSystem.writeAtomically(JSON.encode(note), to: folder.notePath(of: id))
        try FileSystem.rename(file ?? path(of: id), to: folder.path(of: id))
        _ = try? FileSystem.remove(statePath(of: id))
    }

    /// Deletes every item with its retry state and note, every temporary file an atomic write
    /// left (of any age: this is for an opt-out, which keeps nothing), and the other files
    /// `alsoDeleting` names. The folder itself stays.
    package func deleteAll(alsoDeleting: (String) -> Bool = { _ in false }) {
        let names = (try? FileSystem.contentsOfDirectory(directory)) ?? []
        for name in names
        where name.hasSuffix(itemSuffix) || name.hasSuffix(StateLayout.Suffix.deliveryState)
            || name.hasSuffix(StateLayout.Suffix.rejectionReason) || FileSystem.isTemporaryName(name)
            || alsoDeleting(name)
        {
            _ = try? FileSystem.remove(directory + "/" + name)
        }
    }

    /// Deletes the temporary files (an atomic write's, and those `alsoTemporary` names) older
    /// than `age`: younger ones may still be written by a live process.
    package func deleteStaleTemporaryFiles(
        olderThan age: Duration, now: Timestamp = .now(), alsoTemporary: (String) -> Bool = { _ in false }
    ) {
        FileSystem.removeStaleTemporaryFiles(in: directory, olderThan: age.inSeconds, now: now) { name in
            FileSystem.isTemporaryName(name) || alsoTemporary(name)
        }
    }
}
