import Glibc
import Synchronization

extension FileSystem {
    /// Whether ``createExclusively(_:at:mode:)`` made the file or found one there.
    package enum CreateOutcome: Sendable, Equatable {
        case created
        /// A file of that name already existed; it was left as it was.
        case alreadyExisted
    }

    /// Numbers the temporary files of one process, so that two threads writing the same path
    /// never share one.
    private static let temporaryCounter = Atomic<UInt64>(0)

    /// `<path>.tmp-<pid>-<n>`: next to the target (a rename never crosses file systems), and
    /// named so that ``removeStaleTemporaryFiles(in:olderThan:now:where:)`` finds what a killed
    /// writer left.
    package static func temporaryPath(for path: String) -> String {
        let number = temporaryCounter.wrappingAdd(1, ordering: .relaxed).oldValue
        return "\(path)\(temporaryMarker)\(getpid())-\(number)"
    }

    /// What ``temporaryPath(for:)`` puts between the target's name and the writer's pid.
    package static let temporaryMarker = ".tmp-"

    /// Whether a file name is one of ``temporaryPath(for:)``'s.
    package static func isTemporaryName(_ name: String) -> Bool { name.contains(temporaryMarker) }

    /// Writes a file so that a reader sees the old content or the new, never half of either:
    /// the bytes go to a temporary file (created with `mode`), which is then renamed over
    /// `path`. With `durable`, the file is synced before the rename and the directory after
    /// it, so that the new content survives a power cut (for stored choices and ids; a file
    /// rewritten often, like the event queue, can skip it). On failure the temporary file is
    /// removed and `path` is as it was.
    package static func writeAtomically(
        _ bytes: some Collection<UInt8>, to path: String, mode: mode_t = 0o600, durable: Bool = false
    ) throws(FileError) {
        let temporary = temporaryPath(for: path)
        try writeNew(bytes, to: temporary, mode: mode, sync: durable, reportingAs: path)
        do throws(SystemCallError) {
            _ = try SystemCall.run("rename") { Glibc.rename(temporary, path) }
        } catch {
            unlink(temporary)
            throw FileError(.write, path, error)
        }
        if durable { try syncDirectory(parentDirectory(path)) }
    }

    /// Creates `path` with these bytes, durably, unless a file of that name exists (then it is
    /// left alone): the bytes are written and synced under a temporary name, which is then
    /// hard-linked to `path` (`link(2)` refuses an existing name, so two writers of one name
    /// cannot race) and removed; the directory is synced. A reader never sees the file before
    /// all of its bytes are on disk.
    package static func createExclusively(
        _ bytes: some Collection<UInt8>, at path: String, mode: mode_t = 0o600
    ) throws(FileError) -> CreateOutcome {
        let temporary = temporaryPath(for: path)
        try writeNew(bytes, to: temporary, mode: mode, sync: true, reportingAs: path)
        defer { unlink(temporary) }
        do throws(SystemCallError) {
            _ = try SystemCall.run("link") { link(temporary, path) }
        } catch let error where error.errno == EEXIST {
            return .alreadyExisted
        } catch {
            throw FileError(.create, path, error)
        }
        try syncDirectory(parentDirectory(path))
        return .created
    }

    /// Opens (creating it with `mode` if needed) a file for appending: every write lands at
    /// its end, even with another writer. Close it with `close(2)`.
    package static func openForAppending(_ path: String, mode: mode_t = 0o600) throws(FileError) -> Int32 {
        try call("open", .append, path) { open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, mode) }
    }

    /// Appends all the bytes to an open descriptor (see ``openForAppending(_:mode:)``),
    /// resuming after partial writes and interruptions; with `durable`, syncs the file after.
    /// `path` is for the message.
    package static func append(
        _ bytes: some Collection<UInt8>, to descriptor: Int32, path: String, durable: Bool = false
    ) throws(FileError) {
        try writeAll(bytes, to: descriptor, path: path, action: .append)
        if durable { try call("fsync", .sync, path) { fsync(descriptor) } }
    }

    /// `fsync(2)` on a directory, so that the names created, renamed or removed in it survive
    /// a power cut.
    package static func syncDirectory(_ path: String) throws(FileError) {
        let descriptor = try call("open", .sync, path) { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { close(descriptor) }
        try call("fsync", .sync, path) { fsync(descriptor) }
    }

    /// Removes the temporary files that writers killed mid-write left in `directory`: the
    /// names `isTemporary` accepts (``isTemporaryName(_:)`` by default; the crash handler's
    /// `.crash.tmp` files need their own test) whose modification time is more than `seconds`
    /// before `now`. Younger ones may still be being written by a live process. Returns how
    /// many were removed; a file that cannot be removed is left.
    @discardableResult
    package static func removeStaleTemporaryFiles(
        in directory: String, olderThan seconds: Double, now: Timestamp = .now(),
        where isTemporary: (String) -> Bool = isTemporaryName
    ) -> Int {
        guard let names = try? contentsOfDirectory(directory) else { return 0 }
        var removed = 0
        for name in names where isTemporary(name) {
            let path = directory + "/" + name
            guard let status = try? status(path), status.kind == .regular,
                now.seconds - status.modificationTime > seconds
            else { continue }
            if unlink(path) == 0 { removed += 1 }
        }
        return removed
    }

    /// Creates the temporary file `path` with `mode`, writes all the bytes, optionally syncs,
    /// and closes it; removes it again on failure. Errors name `target`, the file the caller
    /// asked for. A leftover of a dead process that had the same pid (pid 1 in every
    /// container) is overwritten, not an error; a symbolic link there is refused.
    private static func writeNew(
        _ bytes: some Collection<UInt8>, to path: String, mode: mode_t, sync: Bool, reportingAs target: String
    ) throws(FileError) {
        let descriptor = try call("open", .write, target) {
            open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode)
        }
        var failure: FileError?
        do throws(FileError) {
            try writeAll(bytes, to: descriptor, path: target, action: .write)
            if sync { try call("fsync", .sync, target) { fsync(descriptor) } }
        } catch {
            failure = error
        }
        // A failed close may mean a write that never reached the disk (NFS reports it there).
        do throws(SystemCallError) {
            _ = try SystemCall.run("close", retryingInterrupts: false) { close(descriptor) }
        } catch {
            if failure == nil { failure = FileError(.write, target, error) }
        }
        if let failure {
            unlink(path)
            throw failure
        }
    }

    /// `write(2)` until every byte is written.
    private static func writeAll(
        _ bytes: some Collection<UInt8>, to descriptor: Int32, path: String, action: FileError.Action
    ) throws(FileError) {
        let failure: SystemCallError? =
            bytes.withContiguousStorageIfAvailable { writeAll($0, to: descriptor) }
            ?? Array(bytes).withUnsafeBufferPointer { writeAll($0, to: descriptor) }
        if let failure { throw FileError(action, path, failure) }
    }

    /// The write that failed, or nil.
    private static func writeAll(_ buffer: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> SystemCallError? {
        var offset = 0
        while offset < buffer.count {
            do throws(SystemCallError) {
                offset += try SystemCall.run("write") {
                    write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                }
            } catch {
                return error
            }
        }
        return nil
    }
}
