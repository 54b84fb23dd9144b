import CrashReporterSupport
import Glibc
import Tracking

/// One queued event: its id, the consent epoch it was made in, and its encoded JSON, kept
/// as the line the queue file holds (`<epoch> <event_id> <json>\n`), so that tracking an
/// event encodes it once, into the bytes it writes.
struct QueuedEvent: Sendable, Equatable {
    let id: UUIDBytes
    let epoch: UInt64
    /// The file's line for the event, newline included.
    let line: [UInt8]
    /// Where the JSON starts in `line`.
    private let jsonStart: Int

    /// The event's JSON (a copy; only sending needs it).
    var json: [UInt8] { Array(line[jsonStart..<(line.count - 1)]) }
    var jsonCount: Int { line.count - 1 - jsonStart }

    init(id: UUIDBytes, epoch: UInt64, json: [UInt8]) {
        var out = JSONWriter(capacity: json.count + 64)
        Self.appendPrefix(epoch: epoch, id: id, to: &out)
        let jsonStart = out.bytes.count
        out.bytes.append(contentsOf: json)
        out.byte(UInt8(ascii: "\n"))
        self.init(id: id, epoch: epoch, line: out.bytes, jsonStart: jsonStart)
    }

    /// An event whose line is already made: `<epoch> <id> ` up to `jsonStart`, then the JSON
    /// and a newline.
    init(id: UUIDBytes, epoch: UInt64, line: [UInt8], jsonStart: Int) {
        self.id = id
        self.epoch = epoch
        self.line = line
        self.jsonStart = jsonStart
    }

    /// `<epoch> <event_id> `.
    static func appendPrefix(epoch: UInt64, id: UUIDBytes, to out: inout JSONWriter) {
        out.unsigned(epoch)
        out.byte(UInt8(ascii: " "))
        id.appendText(to: &out.bytes)
        out.byte(UInt8(ascii: " "))
    }
}

/// The events waiting to be sent, on disk and in memory.
///
/// The file is a log of lines, `<epoch> <event_id> <event JSON>\n`. Tracking an event appends
/// one line with one `write(2)` to a descriptor opened `O_APPEND`: the queue is never
/// rewritten whole for an event. It is rewritten (to a temporary file, then renamed) only when
/// events leave it: after a delivered or refused batch, when consent moves on, when it holds
/// twice as many lines as it may keep, or when opening found damage.
///
/// Reopening reads every line and skips any it cannot parse: a torn tail (a `kill -9` in the
/// middle of a write leaves a line without its newline) and damaged lines are dropped, never
/// fatal, and the file is rewritten without them so new lines never follow a torn one. At
/// most `capacity` events are kept, the oldest dropped first.
///
/// Group commit (`groupCommit`, off unless the owner turns it on): the first
/// `syncWritesPerWindow` appends in each `window` are written at once as above; appends past
/// that (a burst) wait in memory, in order, until the owner calls `writePending()`, which
/// writes them all with one `write(2)`. Once lines wait, later appends wait behind them, so the
/// file keeps the order of tracking. A rewrite writes every event, waiting ones included;
/// `close()` drops lines still waiting (the owner writes them first when it wants them).
///
/// Not thread-safe: the provider uses it under its lock.
struct EventQueue {
    /// Appends written at once per window before group commit holds them back.
    static let syncWritesPerWindow = 8
    static let window: UInt64 = 10_000_000  // ns

    var groupCommit = false
    /// Lines appended but not yet written (group commit), oldest first.
    private var pending: [UInt8] = []
    private var pendingLines = 0
    private var windowStart: UInt64 = 0
    private var windowWrites = 0
    /// Whether lines wait for `writePending()`.
    var hasPending: Bool { pendingLines > 0 }

    let path: String
    let capacity: Int
    /// Oldest first from `head`; slots before `head` are dropped events not yet compacted
    /// away, so dropping the oldest of a full queue costs O(1), not a shift of 1,000.
    private var storage: [QueuedEvent] = []
    private var head = 0
    /// The events, oldest first.
    var events: ArraySlice<QueuedEvent> { storage[head...] }
    /// Lines in the file, including those already dropped from memory.
    private var linesInFile = 0
    private var fd: Int32 = -1
    /// Lines skipped as damaged when the file was opened.
    private(set) var skippedOnOpen = 0

    /// Opens the queue at `path`, creating the file (and its directory) only when `create`.
    /// Returns nil when there is no file and `create` is false.
    init?(path: String, capacity: Int, create: Bool) throws(FileError) {
        self.path = path
        self.capacity = capacity
        let exists = FileSystem.exists(path)
        if !exists && !create { return nil }
        if exists {
            Self.removeStaleTemporaryFiles(of: path)
            try load()
        } else {
            try FileSystem.createDirectory(FileSystem.parentDirectory(path))
        }
        try openForAppend()
    }

    var count: Int { storage.count - head }
    var isEmpty: Bool { count == 0 }

    /// Appends one event: one line, one write.
    mutating func append(_ event: QueuedEvent) throws(FileError) {
        if groupCommit && (pendingLines > 0 || !claimSyncWrite()) {
            pending.append(contentsOf: event.line)
            pendingLines += 1
        } else {
            try writeAll(event.line)
            linesInFile += 1
        }
        storage.append(event)
        if count > capacity {
            head += count - capacity
            if head >= capacity {
                storage.removeFirst(head)
                head = 0
            }
        }
        if linesInFile > 2 * capacity {
            try rewrite()
        }
    }

    /// Writes the lines waiting in memory with one `write(2)`.
    mutating func writePending() throws(FileError) {
        guard pendingLines > 0 else { return }
        defer {
            // Also after a failed write, which may have written part: trying again would
            // duplicate lines. The events stay in memory and the next rewrite stores them.
            pending.removeAll(keepingCapacity: pending.count <= 64 * 1024)
            pendingLines = 0
        }
        try writeAll(pending)
        linesInFile += pendingLines
        if linesInFile > 2 * capacity {
            try rewrite()
        }
    }

    /// Whether this append may still be written at once in the current window.
    private mutating func claimSyncWrite() -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &now)
        let nanos = UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
        if nanos &- windowStart >= Self.window {
            windowStart = nanos
            windowWrites = 0
        }
        guard windowWrites < Self.syncWritesPerWindow else { return false }
        windowWrites += 1
        return true
    }

    /// Removes the events with these ids and rewrites the file.
    mutating func remove(ids: Set<UUIDBytes>) throws(FileError) {
        let before = count
        compact()
        storage.removeAll { ids.contains($0.id) }
        if count != before { try rewrite() }
    }

    /// Drops the events of other epochs than `epoch` and rewrites the file when any went.
    mutating func keepOnly(epoch: UInt64) throws(FileError) {
        let before = count
        compact()
        storage.removeAll { $0.epoch != epoch }
        if count != before { try rewrite() }
    }

    /// Closes the descriptor (the file stays) and drops lines still waiting in memory.
    mutating func close() {
        if fd >= 0 { _ = Glibc.close(fd) }
        fd = -1
        pending = []
        pendingLines = 0
    }

    // MARK: Private

    /// More than a queue file can hold: about twice `capacity` lines (it is compacted past
    /// that) of at most one event each, for at least the default capacity (a file written
    /// with a larger one is still read). A larger file is damaged beyond use: it is started
    /// afresh.
    private var maxFileBytes: Int { (2 * max(capacity, 1000) + 2) * (EventLimits.maxEventBytes + 64) }

    private mutating func load() throws(FileError) {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(path, limit: maxFileBytes)
        } catch {
            guard error.reason == .tooLarge(limit: maxFileBytes) else { throw error }
            skippedOnOpen = 1
            linesInFile = 1
            try rewrite(reopen: false)
            return
        }
        let parsed = Self.parseLines(bytes)
        var loaded = parsed.events
        let damaged = parsed.damaged
        skippedOnOpen = damaged
        linesInFile = loaded.count + damaged
        if loaded.count > capacity { loaded.removeFirst(loaded.count - capacity) }
        storage = loaded
        head = 0
        if damaged > 0 || linesInFile != count {
            try rewrite(reopen: false)
        }
    }

    /// A compaction killed between writing its temporary file and renaming it leaves that
    /// file behind; the queue itself is still whole.
    static func removeStaleTemporaryFiles(of path: String) {
        let directory = FileSystem.parentDirectory(path)
        let prefix = (path.split(separator: "/").last.map(String.init) ?? path) + FileSystem.temporaryMarker
        for name in (try? FileSystem.contentsOfDirectory(directory)) ?? [] where name.hasPrefix(prefix) {
            _ = try? FileSystem.remove(directory + "/" + name)
        }
    }

    /// The events of the lines in `bytes`, and how many lines could not be read (a last line
    /// without its newline, a torn write, counts as one).
    static func parseLines(_ bytes: [UInt8]) -> (events: [QueuedEvent], damaged: Int) {
        var events: [QueuedEvent] = []
        var damaged = 0
        bytes.withUnsafeBufferPointer { bytes in
            var start = 0
            for i in 0..<bytes.count where bytes[i] == UInt8(ascii: "\n") {
                if let event = Self.parse(UnsafeBufferPointer(rebasing: bytes[start..<i])) {
                    events.append(event)
                } else {
                    damaged += 1
                }
                start = i + 1
            }
            if start < bytes.count { damaged += 1 }
        }
        return (events, damaged)
    }

    static func parse(_ line: UnsafeBufferPointer<UInt8>) -> QueuedEvent? {
        guard let firstSpace = line.firstIndex(of: UInt8(ascii: " ")), firstSpace > 0,
            line.count > firstSpace + 38, line[firstSpace + 37] == UInt8(ascii: " ")
        else { return nil }
        let idText = UnsafeBufferPointer(rebasing: line[(firstSpace + 1)..<(firstSpace + 37)])
        guard let epoch = UInt64(String(decoding: UnsafeBufferPointer(rebasing: line[0..<firstSpace]), as: UTF8.self)),
            let id = UUIDBytes(utf8: idText)
        else { return nil }
        let json = Array(line[(firstSpace + 38)...])
        guard json.first == UInt8(ascii: "{"), case .object? = try? JSON.parse(json) else { return nil }
        return QueuedEvent(id: id, epoch: epoch, json: json)
    }

    private mutating func openForAppend() throws(FileError) {
        if fd >= 0 {
            _ = Glibc.close(fd)
            fd = -1
        }
        fd = try FileSystem.openForAppending(path)
    }

    /// One `write(2)` for the bytes (resumed after a short or interrupted write).
    private func writeAll(_ bytes: [UInt8]) throws(FileError) {
        try FileSystem.append(bytes, to: fd, path: path)
    }

    private mutating func compact() {
        if head > 0 {
            storage.removeFirst(head)
            head = 0
        }
    }

    /// Writes the events in memory as the whole file (temporary file, then rename).
    private mutating func rewrite(reopen: Bool = true) throws(FileError) {
        compact()
        var data = [UInt8]()
        data.reserveCapacity(storage.reduce(0) { $0 + $1.line.count })
        for event in storage { data.append(contentsOf: event.line) }
        try FileSystem.writeAtomically(data, to: path)
        // Every event is in the file now, those that waited in memory too.
        pending.removeAll(keepingCapacity: true)
        pendingLines = 0
        linesInFile = events.count
        if reopen { try openForAppend() }
    }
}
