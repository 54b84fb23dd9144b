import Foundation

/// The reports waiting in `<state>/pending`.
public enum PendingReports {
    /// Paths of the complete reports (`*.crash`), oldest first. Half-written `.tmp` files
    /// are not reports and are left out.
    public static func list(in pendingDirectory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: pendingDirectory)) ?? []
        let paths = names.filter { $0.hasSuffix(".crash") }.map { pendingDirectory + "/" + $0 }
        return paths.sorted { modificationTime($0) < modificationTime($1) }
    }

    /// Deletes every report, its retry state and leftover temporary files in the directory.
    static func deleteAll(in pendingDirectory: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: pendingDirectory)) ?? []
        for name in names where name.hasSuffix(".crash") || name.hasSuffix(".crash.tmp") || name.hasSuffix(".delivery")
        {
            unlink(pendingDirectory + "/" + name)
        }
    }

    /// Deletes `.crash.tmp` files older than a minute: a handler that died mid-write left
    /// them, and no reader ever takes them for reports. Younger ones may still be written by
    /// another process of the same service that is crashing right now.
    static func deleteStaleTemporaryFiles(in pendingDirectory: String, now: Date = Date()) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: pendingDirectory)) ?? []
        for name in names where name.hasSuffix(".crash.tmp") {
            let path = pendingDirectory + "/" + name
            if now.timeIntervalSince(modificationTime(path)) > 60 { unlink(path) }
        }
    }

    private static func modificationTime(_ path: String) -> Date {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return attributes?[.modificationDate] as? Date ?? .distantPast
    }
}
