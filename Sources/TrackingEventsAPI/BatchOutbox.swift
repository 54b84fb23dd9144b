import CrashReporterSupport
import Tracking

/// One wire's sealed batches: the analytics side of the package's one folder queue,
/// `OutboxFolder` (docs/decisions/0173-analytics-batches-in-the-folder-queue.md).
///
/// The journal (`EventQueue`) takes each event with one write. When an attempt starts and no
/// sealed batch waits, `QueuedDelivery` seals the next batch: its events' journal lines
/// (`<epoch> <event_id> <json>\n`, as the journal holds them) are written as one item,
/// `analytics/<queue>.outbox/<id>.batch`, and only then removed from the journal. A kill between
/// the two leaves the events in both: the next start drops from the journal what a sealed batch
/// holds, and at worst they are sent twice, which the backend drops by event id.
///
/// Ids sort in sealing order (`<queue>-<unix ms, 13 digits>-<n, 6 digits>`; the halves of a
/// split batch add `a` and `b`, so they keep its place) and the oldest is always sent first,
/// those an earlier launch left before any new one. Sealing and sending happen under `lock()`, a
/// `DirectoryLock` on `<state>/analytics-<queue>.lock`, so two processes of one service never send
/// the same batch; revoking consent removes that file only while holding it (`deleteAll`).
/// Refused and damaged batches are set aside into `analytics/rejected/` (`RejectedBatches`).
struct BatchOutbox: Sendable {
    let folder: OutboxFolder
    let lockPath: String
    /// `events`, `telemetrydeck`, `posthog`: the start of every id.
    private let stem: String

    /// Larger than any batch sealed here: 100 events of at most 8 KB, each with its line prefix.
    static let itemSizeLimit = EventLimits.maxBatchEvents * (EventLimits.maxEventBytes + 64) + 4096

    /// Sealings of this process, for ids sealed within one millisecond.
    private static let sealings = Lock<UInt32>(0)

    init(stateDirectory: String, journalName: String) {
        let layout = StateLayout(stateDirectory)
        folder = OutboxFolder(directory: layout.batchOutbox(journalName), itemSuffix: StateLayout.Suffix.sealedBatch)
        lockPath = layout.batchOutboxLock(journalName)
        stem = String(OutboxFolder.fileName(folder.directory).dropLast(StateLayout.Suffix.batchOutbox.count))
    }

    /// What a sealed item holds: its events, or why it cannot be sent.
    enum Contents: Sendable, Equatable {
        case events([QueuedEvent])
        case damaged(String)
    }

    /// Takes the wire's lock; nil when another process, or another attempt of this one, holds it.
    func lock() -> DirectoryLock? { DirectoryLock(path: lockPath, wait: false) }

    /// Whether a sealed batch waits: one directory listing.
    var hasBatches: Bool { folder.hasItems }

    /// The sealed batches' ids, oldest first.
    func ids() -> [String] { folder.items().map { folder.id(of: $0) }.sorted() }

    /// Seals `events` as the newest batch; returns its id.
    func seal(_ events: some Collection<QueuedEvent>, now: Timestamp = .now()) throws(FileError) -> String {
        let n = Self.sealings.withLock { count in
            count = count == 999_999 ? 0 : count + 1
            return count
        }
        let millis = String(Swift.max(0, now.milliseconds))
        let sequence = String(n)
        let id =
            stem + "-" + String(repeating: "0", count: Swift.max(0, 13 - millis.count)) + millis + "-"
            + String(repeating: "0", count: 6 - sequence.count) + sequence
        try folder.add(Self.lines(events), id: id)
        return id
    }

    /// A sealed batch's events; damaged when the item cannot be read, holds no event, or holds a
    /// line that is not one (an item is written whole, so any such line is damage, not a torn write).
    func contents(of id: String) -> Contents {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(folder.path(of: id), limit: Self.itemSizeLimit)
        } catch {
            return .damaged("cannot be read: \(error)")
        }
        let parsed = EventQueue.parseLines(bytes)
        if parsed.damaged > 0 { return .damaged("\(parsed.damaged) of its lines are not events") }
        if parsed.events.isEmpty { return .damaged("it holds no event") }
        return .events(parsed.events)
    }

    /// Replaces a batch by two that keep its place: the first half as `<id>a`, the rest as
    /// `<id>b`. The halves are written before the batch is removed: a kill between sends some
    /// events twice, never loses one.
    func split(_ id: String, events: [QueuedEvent]) throws(FileError) {
        let half = events.count / 2
        try folder.add(Self.lines(events[..<half]), id: id + "a")
        try folder.add(Self.lines(events[half...]), id: id + "b")
        folder.remove(id)
    }

    /// The events a sealed batch holds, counted by its lines; 0 when it cannot be read.
    func count(of id: String) -> Int {
        guard let bytes = try? FileSystem.read(folder.path(of: id), limit: Self.itemSizeLimit) else { return 0 }
        return bytes.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }

    /// The events every sealed batch holds.
    func eventCount() -> Int { ids().reduce(0) { $0 + count(of: $1) } }

    /// Deletes every sealed batch and the folder (consent revoked), and the lock file when no
    /// other attempt holds it: a holder's file stays, as removing it would let a third process
    /// lock a new one beside it.
    func deleteAll() {
        _ = try? FileSystem.remove(folder.directory, recursive: true)
        lock()?.removeFile()
    }

    private static func lines(_ events: some Collection<QueuedEvent>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(events.reduce(0) { $0 + $1.line.count })
        for event in events { bytes += event.line }
        return bytes
    }
}
