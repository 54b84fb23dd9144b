import CrashReporterSupport
import Tracking

/// Batches a backend refused for good (a status the retry rules drop: 400, 401, 403, …), kept
/// for review in `<state>/analytics/rejected/` instead of vanishing: one file per batch,
/// `<backend>-<unix ms>.jsonl`, a first line `{"backend","status","rejected_at","events"}` and
/// then the events as they were queued, one per line (never the backend's key). At most
/// `limit` files are kept, the oldest removed first. They live under `analytics/`, so revoking
/// consent deletes them with the queue and the install id.
enum RejectedBatches {
    static let limit = 20

    static func directory(stateDirectory: String) -> String { StateLayout(stateDirectory).rejectedBatches }

    /// Stores the batch; a failure is reported, never thrown: the batch leaves the queue anyway.
    static func keep(
        _ events: [[UInt8]], backend: String, status: String, in directory: String, now: Timestamp = .now()
    ) {
        var out = JSONWriter(capacity: events.reduce(128) { $0 + $1.count + 1 })
        out.raw("{\"backend\":")
        out.string(backend)
        out.raw(",\"status\":")
        out.string(status)
        out.raw(",\"rejected_at\":")
        out.timestamp(now)
        out.raw(",\"events\":")
        out.unsigned(UInt64(events.count))
        out.raw("}\n")
        for event in events {
            out.bytes += event
            out.byte(UInt8(ascii: "\n"))
        }
        let stem = String(backend.lowercased().filter { $0.isLetter || $0.isNumber })
        let millis = UInt64(max(0, now.seconds * 1000))
        do {
            try FileSystem.createDirectory(directory)
            try FileSystem.writeAtomically(
                out.bytes, to: StateLayout.rejectedBatch(backend: stem, milliseconds: millis, in: directory))
            let kept = try FileSystem.contentsOfDirectory(directory).filter {
                $0.hasSuffix(StateLayout.Suffix.rejectedBatch)
            }
            // Oldest first: the names end in the time, and one backend's stem is fixed.
            let byAge = kept.sorted { age($0) < age($1) }
            for name in byAge.dropLast(limit) { _ = try? FileSystem.remove("\(directory)/\(name)") }
        } catch {
            Diagnostics.report("cannot keep the rejected batch for review: \(error)")
        }
    }

    private static func age(_ name: String) -> UInt64 {
        let digits = name.dropLast(StateLayout.Suffix.rejectedBatch.count).reversed().prefix { $0.isNumber }
        return UInt64(String(digits.reversed())) ?? 0
    }
}
