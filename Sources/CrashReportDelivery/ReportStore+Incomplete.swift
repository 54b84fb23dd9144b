import CrashReporterSupport

/// What a crash handler could not finish: set aside in `rejected/` with why, at the next launch
/// (docs/signal-safety.md, "Faults while writing").
///
/// ```
/// pending/<id>.crash.failed-<errno>   a write failed (a full disk, an I/O error): kept by the handler
/// pending/<id>.crash.tmp              the process ended while writing it (a fault, the watchdog, a kill)
/// ```
///
/// Neither is ever read as a report or sent: each is moved to `rejected/<id>.crash` with a
/// `rejected/<id>.reason` note. A `.crash.tmp` younger than a minute may still be written by a
/// live process of the same service and is left alone.
extension ReportStore {
    static let failedMarker = StateLayout.Suffix.failedReport

    /// Sets aside every incomplete report of `pending/` and returns their ids. A file that cannot
    /// be moved (a full disk refuses the note) stays for the next time.
    @discardableResult
    package func setAsideIncomplete(now: Timestamp = .now()) -> [String] {
        let names = (try? FileSystem.contentsOfDirectory(pending)) ?? []
        var ids: [String] = []
        for name in names.sorted() {
            let path = pending + "/" + name
            // Only a `.crash.tmp` needs its age: no `stat` for the reports themselves at start.
            let modified = name.hasSuffix(StateLayout.Suffix.temporaryReport) ? FileSystem.modificationTime(path) : nil
            guard let (id, reason) = Self.incomplete(name: name, modified: modified, now: now) else { continue }
            if (try? markRejected(path, id: id, status: nil, reason: reason, now: now)) != nil { ids.append(id) }
        }
        return ids
    }

    /// The id and the reason of an incomplete report's file name, nil for any other file.
    static func incomplete(name: String, modified: Double?, now: Timestamp) -> (id: String, reason: String)? {
        // A report's own name (the common case) is told apart by its suffix first: the first call of
        // firstRange(of:) instantiates _StringProcessing's generic searcher, a quarter of start()'s time.
        if !name.hasSuffix(StateLayout.Suffix.report), let marker = name.firstRange(of: failedMarker),
            let code = Int32(name[marker.upperBound...])
        {
            let id = String(name[..<marker.lowerBound])
            let why = code > 0 ? "writing it failed: \(Errno.text(code))" : "it could not be compressed whole"
            return (id, "incomplete report: \(why)")
        }
        let temporary = StateLayout.Suffix.temporaryReport
        if name.hasSuffix(temporary), let modified, now.seconds - modified > 60 {
            return (String(name.dropLast(temporary.count)), "incomplete report: the process ended while writing it")
        }
        return nil
    }
}
