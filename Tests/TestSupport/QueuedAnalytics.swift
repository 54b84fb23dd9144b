import CrashReporterSupport

/// A wire's queued analytics events on disk, as its next start takes them: the lines of its
/// sealed batches (`analytics/<queue>.outbox/<id>.batch`, oldest first), then the journal's
/// (`analytics/<queue>.queue`) that no sealed batch holds. Each line is
/// `<epoch> <event_id> <json>`. The one reading the tests share, so that nothing a failed upload
/// kept is missed wherever it waits.
public enum QueuedAnalytics {
    /// The lines, newline-terminated, as one text ("" when nothing is queued).
    public static func text(stateDirectory: String, journal: String = "events.queue") -> String {
        let layout = StateLayout(stateDirectory)
        let outbox = layout.batchOutbox(journal)
        let names = ((try? FileSystem.contentsOfDirectory(outbox)) ?? []).filter {
            $0.hasSuffix(StateLayout.Suffix.sealedBatch)
        }
        var sealed = ""
        for name in names.sorted() {
            sealed += String(decoding: (try? FileSystem.read(outbox + "/" + name, limit: 1 << 24)) ?? [], as: UTF8.self)
        }
        let sealedIDs = Set(lines(sealed).compactMap(eventID))
        let journalText = String(
            decoding: (try? FileSystem.read(layout.analyticsQueue(journal), limit: 1 << 26)) ?? [], as: UTF8.self)
        var text = sealed
        for line in lines(journalText) where eventID(line).map({ !sealedIDs.contains($0) }) ?? true {
            text += line + "\n"
        }
        return text
    }

    /// The events sealed in batches, oldest first: each batch's lines.
    public static func sealedBatches(stateDirectory: String, journal: String = "events.queue")
        -> [[String]]
    {
        let outbox = StateLayout(stateDirectory).batchOutbox(journal)
        let names = ((try? FileSystem.contentsOfDirectory(outbox)) ?? []).filter {
            $0.hasSuffix(StateLayout.Suffix.sealedBatch)
        }
        return names.sorted().map { name in
            lines(String(decoding: (try? FileSystem.read(outbox + "/" + name, limit: 1 << 24)) ?? [], as: UTF8.self))
        }
    }

    private static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    /// The second word of a line, its event id.
    private static func eventID(_ line: String) -> String? {
        let words = line.split(separator: " ", maxSplits: 2)
        return words.count == 3 ? String(words[1]).lowercased() : nil
    }
}
