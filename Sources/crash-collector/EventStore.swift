import CrashCollectorParsers
import CrashReporterSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Accepted analytics events in `DATA/events/events.jsonl`: one JSON object per line, appended
/// and fsynced once per batch. At start the file is read back to rebuild the set of stored ids
/// (for deduplication) and the counts by name; a torn last line (a crash mid-append) is cut off.
final class EventStore: Sendable {
    let path: String
    private let state: Lock<State>

    private struct State {
        var fd: Int32
        var ids: Set<String>
        var counts: [String: Int]
        /// By name, then by Unix hour of `occurred_at`.
        var hourly: [String: [Int64: Int]]
    }

    /// The Unix hour of an ISO 8601 time, nil when it does not parse.
    static func hour(of occurredAt: String) -> Int64? {
        guard let seconds = Timestamp(iso8601: occurredAt)?.seconds else { return nil }
        return Int64((seconds / 3600).rounded(.down))
    }

    init(dataDirectory: String) throws(FileError) {
        let layout = CollectorDataLayout(dataDirectory)
        try DataDirectory.create(layout.events)
        path = layout.eventsLog
        var ids = Set<String>()
        var counts: [String: Int] = [:]
        var hourly: [String: [Int64: Int]] = [:]
        if let data = DataDirectory.read(path) {
            var kept = 0
            var start = data.startIndex
            while let newline = data[start...].firstIndex(of: 0x0a) {
                if let record = try? JSON.parse(data[start..<newline]),
                    case .string(let id)? = record["event_id"], case .string(let name)? = record["name"]
                {
                    if ids.insert(id).inserted {
                        counts[name, default: 0] += 1
                        if case .string(let occurredAt)? = record["occurred_at"], let hour = Self.hour(of: occurredAt) {
                            hourly[name, default: [:]][hour, default: 0] += 1
                        }
                    }
                } else {
                    Log.warning("\(path): skipping a damaged line")
                }
                start = newline + 1
                kept = start - data.startIndex
            }
            if kept < data.count {
                Log.warning("\(path): cutting off a torn last line of \(ByteCount.text(data.count - kept))")
                truncate(path, off_t(kept))
            }
        }
        let fd = try FileSystem.openForAppending(path, mode: DataDirectory.fileMode)
        state = Lock(State(fd: fd, ids: ids, counts: counts, hourly: hourly))
    }

    deinit {
        _ = state.withLock { close($0.fd) }
    }

    /// Appends the events not stored yet (by event id, also within the batch) in one fsynced
    /// write. Returns how many were new.
    @discardableResult
    func append(_ events: [EventValidation.Accepted], receivedAt: String) throws(FileError) -> Int {
        let outcome = state.withLock { state -> Result<Int, FileError> in
            var lines: [UInt8] = []
            var newIDs: [String] = []
            var seen = Set<String>()
            for event in events where !state.ids.contains(event.eventID) && seen.insert(event.eventID).inserted {
                lines.append(contentsOf: JSON.serialize(event.record(receivedAt: receivedAt)))
                lines.append(0x0a)
                newIDs.append(event.eventID)
            }
            guard !newIDs.isEmpty else { return .success(0) }
            do throws(FileError) {
                try FileSystem.append(lines, to: state.fd, path: path, durable: true)
            } catch {
                return .failure(error)
            }
            for event in events where newIDs.contains(event.eventID) && state.ids.insert(event.eventID).inserted {
                state.counts[event.name, default: 0] += 1
                if let hour = Self.hour(of: event.occurredAt) {
                    state.hourly[event.name, default: [:]][hour, default: 0] += 1
                }
            }
            return .success(newIDs.count)
        }
        return try outcome.get()
    }

    /// Stored events by name.
    var counts: [String: Int] { state.withLock { $0.counts } }

    /// Stored events by name, then by the Unix hour they occurred in.
    var hourlyCounts: [String: [Int64: Int]] { state.withLock { $0.hourly } }
}
