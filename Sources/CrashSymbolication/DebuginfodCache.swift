import CrashReporterSupport

/// elfutils' debuginfod client cache, in its place and layout, so that gdb, `debuginfod-find`
/// and the tools fetch each file once between them:
///
/// - the root is `$DEBUGINFOD_CACHE_PATH`, else `$XDG_CACHE_HOME/debuginfod_client`, else
///   `~/.cache/debuginfod_client`;
/// - a file is `ROOT/BUILDID/debuginfo` (lower-case hex), put in place by a rename;
/// - a miss (every server answered 404) is an empty file at that path, trusted for
///   `ROOT/cache_miss_s` seconds after its modification time (600 when that file is absent).
///
/// Cleaning old entries is left to elfutils' own client (its `cache_clean_interval_s`).
struct DebuginfodCache: Sendable, Equatable {
    /// elfutils' default for `cache_miss_s`.
    static let defaultMissSeconds = 600.0
    /// The one kind of file the symbolicator asks for.
    static let debuginfo = "debuginfo"

    var root: String

    /// The root the environment names; nil when no home directory is known either.
    static func root(_ settings: EnvironmentSettings) -> String? {
        if let path = settings.text(.debuginfodCachePath) { return path }
        if let xdg = settings.text(.xdgCacheHome), xdg.hasPrefix("/") { return xdg + "/debuginfod_client" }
        guard let home = settings.homeDirectory else { return nil }
        return (home == "/" ? "" : home) + "/.cache/debuginfod_client"
    }

    /// `ROOT/BUILDID/debuginfo`.
    func path(buildID: String) -> String { "\(root)/\(buildID)/\(Self.debuginfo)" }

    /// What the cache holds for a build id.
    enum Entry: Equatable {
        /// A file (not yet checked against the build id: another client may have put it there).
        case file(String)
        /// A miss recorded within the last `cache_miss_s` seconds.
        case miss
        /// Nothing, or a miss that has expired.
        case none
    }

    func entry(buildID: String, now: Double = Timestamp.now().seconds) -> Entry {
        let path = path(buildID: buildID)
        guard let status = try? FileSystem.status(path), status.kind == .regular else { return .none }
        if status.size > 0 { return .file(path) }
        return now - status.modificationTime <= missSeconds ? .miss : .none
    }

    /// `ROOT/cache_miss_s` as elfutils writes it (a whole number of seconds), else its default.
    var missSeconds: Double {
        let text = FileSystem.readSmall("\(root)/cache_miss_s", limit: 64).map { String(decoding: $0, as: UTF8.self) }
        return text.flatMap { Setting.text($0) }.flatMap(Double.init).flatMap { $0 >= 0 ? $0 : nil }
            ?? Self.defaultMissSeconds
    }

    /// Records that no server has the file (an empty file, replacing an expired miss).
    func recordMiss(buildID: String) throws(FileError) {
        try makeDirectory(for: buildID)
        try FileSystem.writeAtomically([UInt8](), to: path(buildID: buildID))
    }

    /// Writes `bytes` under a temporary name beside the entry and returns that name: the caller
    /// checks the file, then ``commit(_:buildID:)``s or ``discard(_:buildID:)``s it.
    func stage(_ bytes: [UInt8], buildID: String) throws(FileError) -> String {
        try makeDirectory(for: buildID)
        let staged = FileSystem.temporaryPath(for: path(buildID: buildID))
        try FileSystem.writeAtomically(bytes, to: staged)
        return staged
    }

    /// Puts a checked file in place; returns its path.
    func commit(_ staged: String, buildID: String) throws(FileError) -> String {
        let target = path(buildID: buildID)
        try FileSystem.rename(staged, to: target)
        return target
    }

    /// Removes a file that failed its check, and the build id's folder when nothing else is in it.
    func discard(_ staged: String, buildID: String) {
        _ = try? FileSystem.remove(staged)
        _ = try? FileSystem.remove("\(root)/\(buildID)")
    }

    private func makeDirectory(for buildID: String) throws(FileError) {
        try FileSystem.createDirectory("\(root)/\(buildID)")
    }
}
