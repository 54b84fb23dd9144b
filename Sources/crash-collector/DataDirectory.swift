import CrashReporterSupport

#if canImport(Glibc)
    import Glibc
#endif

/// How the collector keeps what it stores under `--data`: the modes it creates directories and
/// files with, the files it reads back whole at start, and the temporary files a writer that
/// died left behind. The writing itself is Support's `FileSystem` (`createExclusively`,
/// `openForAppending`, `append`).
enum DataDirectory {
    /// `mkdir`'s mode for the data directory and its subdirectories, and the mode of stored
    /// files: readable by others as far as the umask allows, as `mkdir -p` and `touch` leave
    /// them. The collector is a development receiver whose data its user reads with other tools.
    static let directoryMode: mode_t = 0o777
    static let fileMode: mode_t = 0o644

    /// The largest file read back whole at start (the report index, the events log).
    static let maxReadBytes = 1 << 32

    /// A temporary file younger than this may be another collector's write in progress on the
    /// same data directory, so it is left alone at start; an older one is a dead writer's.
    static let staleTemporarySeconds = 60.0

    /// Creates `path` and its missing parents; fine if it is there. The error keeps the real
    /// cause (`not a directory`, `permission denied`, `read-only file system`).
    static func create(_ path: String) throws(FileError) {
        try FileSystem.createDirectory(path, mode: directoryMode)
    }

    /// The bytes of a file read back at start; nil when there is none, or when it cannot be read
    /// (then with a warning: the collector starts without what the file held).
    static func read(_ path: String) -> [UInt8]? {
        do {
            return try FileSystem.read(path, limit: maxReadBytes)
        } catch {
            if error.errno != ENOENT { Log.warning("\(error); starting without it") }
            return nil
        }
    }

    /// Removes the temporary files of writes that never finished (see ``staleTemporarySeconds``).
    static func removeStaleTemporaryFiles(in directory: String) {
        FileSystem.removeStaleTemporaryFiles(in: directory, olderThan: staleTemporarySeconds)
    }
}
