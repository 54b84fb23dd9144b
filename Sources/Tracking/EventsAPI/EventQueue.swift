import Foundation

/// One queued event: its id, the consent epoch it was made in, and its encoded JSON.
struct QueuedEvent: Sendable, Equatable {
    var id: UUID
    var epoch: UInt64
    var json: [UInt8]
}

/// The events waiting to be sent, on disk and in memory.
///
/// The file is a log of lines, `<epoch> <event_id> <event JSON>\n`. Tracking an event appends
/// one line with one `write(2)` to a descriptor opened `O_APPEND`: the queue is never
/// rewritten whole for an event. It is rewritten (to a temporary file, then renamed) only when
/// events leave it: after a delivered or refused batch, when consent moves on, when it holds
/// half again as many lines as it may keep, or when opening found damage.
///
/// Reopening reads every line and skips any it cannot parse: a torn tail (a `kill -9` in the
/// middle of a write leaves a line without its newline) and damaged lines are dropped, never
/// fatal, and the file is rewritten without them so new lines never follow a torn one. At
/// most `capacity` events are kept, the oldest dropped first.
///
/// Not thread-safe: the provider uses it under its lock.
struct EventQueue {
    let path: String
    let capacity: Int
    private(set) var events: [QueuedEvent] = []
    /// Lines in the file, including those already dropped from memory.
    private var linesInFile = 0
    private var fd: Int32 = -1
    /// Lines skipped as damaged when the file was opened.
    private(set) var skippedOnOpen = 0

    /// Opens the queue at `path`, creating the file (and its directory) only when `create`.
    /// Returns nil when there is no file and `create` is false.
    init?(path: String, capacity: Int, create: Bool) throws {
        self.path = path
        self.capacity = capacity
        let exists = FileManager.default.fileExists(atPath: path)
        if !exists && !create { return nil }
        if exists {
            try load()
        }
        if !exists {
            try Files.makeDirectory((path as NSString).deletingLastPathComponent)
        }
        try openForAppend()
    }

    var count: Int { events.count }
    var isEmpty: Bool { events.isEmpty }

    /// Appends one event: one line, one write.
    mutating func append(_ event: QueuedEvent) throws {
        var line = [UInt8]()
        line.reserveCapacity(event.json.count + 64)
        line.append(contentsOf: String(event.epoch).utf8)
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: event.id.uuidString.lowercased().utf8)
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: event.json)
        line.append(UInt8(ascii: "\n"))
        try writeAll(line)
        linesInFile += 1
        events.append(event)
        if events.count > capacity {
            events.removeFirst(events.count - capacity)
        }
        if linesInFile > capacity + capacity / 2 {
            try rewrite()
        }
    }

    /// Removes the events with these ids and rewrites the file.
    mutating func remove(ids: Set<UUID>) throws {
        let before = events.count
        events.removeAll { ids.contains($0.id) }
        if events.count != before { try rewrite() }
    }

    /// Drops the events of other epochs than `epoch` and rewrites the file when any went.
    mutating func keepOnly(epoch: UInt64) throws {
        let before = events.count
        events.removeAll { $0.epoch != epoch }
        if events.count != before { try rewrite() }
    }

    /// Closes the descriptor (the file stays).
    mutating func close() {
        if fd >= 0 { _ = Glibc.close(fd) }
        fd = -1
    }

    // MARK: Private

    private mutating func load() throws {
        guard let data = FileManager.default.contents(atPath: path) else { return }
        var loaded: [QueuedEvent] = []
        var damaged = 0
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var start = 0
            for i in 0..<bytes.count where bytes[i] == UInt8(ascii: "\n") {
                if let event = Self.parse(UnsafeBufferPointer(rebasing: bytes[start..<i])) {
                    loaded.append(event)
                } else {
                    damaged += 1
                }
                start = i + 1
            }
            // A last line without its newline is a torn write.
            if start < bytes.count { damaged += 1 }
        }
        skippedOnOpen = damaged
        linesInFile = loaded.count + damaged
        if loaded.count > capacity { loaded.removeFirst(loaded.count - capacity) }
        events = loaded
        if damaged > 0 || linesInFile != events.count {
            try rewrite(reopen: false)
        }
    }

    static func parse(_ line: UnsafeBufferPointer<UInt8>) -> QueuedEvent? {
        guard let firstSpace = line.firstIndex(of: UInt8(ascii: " ")), firstSpace > 0,
            line.count > firstSpace + 38, line[firstSpace + 37] == UInt8(ascii: " ")
        else { return nil }
        guard let epoch = UInt64(String(decoding: UnsafeBufferPointer(rebasing: line[0..<firstSpace]), as: UTF8.self)),
            let id = UUID(
                uuidString: String(
                    decoding: UnsafeBufferPointer(rebasing: line[(firstSpace + 1)..<(firstSpace + 37)]), as: UTF8.self))
        else { return nil }
        let json = Array(line[(firstSpace + 38)...])
        guard json.first == UInt8(ascii: "{"),
            (try? JSONSerialization.jsonObject(with: Data(json))) as? [String: Any] != nil
        else { return nil }
        return QueuedEvent(id: id, epoch: epoch, json: json)
    }

    private mutating func openForAppend() throws {
        close()
        fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        if fd < 0 { throw Files.Failure(path: path, code: errno) }
    }

    private func writeAll(_ line: [UInt8]) throws {
        try line.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw Files.Failure(path: path, code: errno)
                }
                offset += n
            }
        }
    }

    /// Writes the events in memory as the whole file (temporary file, then rename).
    private mutating func rewrite(reopen: Bool = true) throws {
        var data = [UInt8]()
        data.reserveCapacity(events.reduce(0) { $0 + $1.json.count + 64 })
        for event in events {
            data.append(contentsOf: String(event.epoch).utf8)
            data.append(UInt8(ascii: " "))
            data.append(contentsOf: event.id.uuidString.lowercased().utf8)
            data.append(UInt8(ascii: " "))
            data.append(contentsOf: event.json)
            data.append(UInt8(ascii: "\n"))
        }
        try Files.writeAtomically(Data(data), to: path)
        linesInFile = events.count
        if reopen { try openForAppend() }
    }
}
