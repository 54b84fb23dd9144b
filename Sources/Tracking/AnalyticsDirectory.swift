import CrashReporterSupport

/// `<state>/analytics/`: everything analytics stores besides the choice (install id, queue).
/// It exists only while consent is granted: the tracker purges it whenever consent is not
/// granted, so a provider that keeps its files here needs no cleanup of its own at start.
package enum AnalyticsDirectory {
    package static func path(_ stateDirectory: String) -> String { StateLayout(stateDirectory).analytics }
    package static func installIDPath(_ stateDirectory: String) -> String { StateLayout(stateDirectory).installID }

    /// Deletes the directory and everything in it; nothing to do when it is not there.
    package static func purge(_ stateDirectory: String) {
        _ = try? FileSystem.remove(path(stateDirectory), recursive: true)
    }

    /// The stored install id; nil when there is none or it is not a UUID.
    static func readInstallID(_ stateDirectory: String) -> String? {
        guard let bytes = try? FileSystem.read(installIDPath(stateDirectory), limit: 4096) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self).trimmingASCIIWhitespace()
        guard UUIDBytes.isCanonical(text) else { return nil }
        return String(text)
    }

    /// Makes and stores (durably) a new install id: a random UUID from the kernel's random
    /// source, derived from nothing about the machine or the user.
    static func createInstallID(_ stateDirectory: String) throws(FileError) -> String {
        let id = UUIDBytes.random().description
        try FileSystem.createDirectory(path(stateDirectory))
        try FileSystem.writeAtomically(Array((id + "\n").utf8), to: installIDPath(stateDirectory), durable: true)
        return id
    }
}
