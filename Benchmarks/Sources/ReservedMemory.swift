import Foundation

/// What the reserved memory costs in touched pages: the anonymous mappings that appear in
/// /proc/self/smaps when the reporter starts in this process, with their size and how much of
/// each is resident at start, after 100 breadcrumbs and after a snapshot (which touches what a
/// crash would).
enum ReservedMemory {
    struct Mapping: Hashable {
        var start: UInt64
        var sizeKiB: Int
    }

    /// The anonymous, private mappings of this process and their resident KiB.
    static func anonymousMappings() -> [Mapping: Int] {
        // Read to the end: a /proc file says it is empty, so a read by its size gets nothing.
        guard let data = FileHandle(forReadingAtPath: "/proc/self/smaps")?.readDataToEndOfFile() else { return [:] }
        let text = String(decoding: data, as: UTF8.self)
        var result: [Mapping: Int] = [:]
        var current: (Mapping, anonymous: Bool)?
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), fields.count >= 5, !range.hasSuffix(":") {
                let bounds = range.split(separator: "-").compactMap { UInt64($0, radix: 16) }
                guard bounds.count == 2 else { continue }
                // No path (the sixth field) and no inode: anonymous memory.
                let mapping = Mapping(start: bounds[0], sizeKiB: Int((bounds[1] - bounds[0]) / 1024))
                current = (mapping, fields.count == 5 && fields[4] == "0")
            } else if fields.first == "Rss:", let current, current.anonymous, fields.count >= 2 {
                result[current.0] = Int(fields[1]) ?? 0
            }
        }
        return result
    }

    /// The rows: each mapping new at the first stage (start), its size, and its resident KiB at each stage.
    static func table(before: [Mapping: Int], stages: [(String, [Mapping: Int])]) -> [String] {
        // The mappings start() made (the threads started later bring stacks of their own).
        guard let first = stages.first?.1 else { return [] }
        let new = first.keys.filter { before[$0] == nil && $0.sizeKiB >= 16 }.sorted { $0.sizeKiB > $1.sizeKiB }
        var lines = [
            "| reserved mapping (new at start), KiB | "
                + stages.map { "resident \($0.0), KiB" }.joined(separator: " | ")
                + " |",
            "|---|" + String(repeating: "---|", count: stages.count),
        ]
        var totals = Array(repeating: 0, count: stages.count)
        for mapping in new {
            let resident = stages.map { $0.1[mapping] ?? 0 }
            for (i, value) in resident.enumerated() { totals[i] += value }
            lines.append("| \(mapping.sizeKiB) | " + resident.map(String.init).joined(separator: " | ") + " |")
        }
        lines.append("| all of them | " + totals.map(String.init).joined(separator: " | ") + " |")
        return lines
    }
}
