import Glibc

/// File-system calls with plain POSIX, each failure thrown as a ``FileError``. Paths are
/// strings; nothing here follows a `~` or a relative path's working directory for you.
package enum FileSystem {
    /// `stat(2)` (following symbolic links).
    package static func status(_ path: String) throws(FileError) -> FileStatus {
        var raw = stat()
        try call("stat", .inspect, path) { stat(path, &raw) }
        return FileStatus(raw)
    }

    /// `fstat(2)` of an open descriptor; `path` is for the message.
    package static func status(descriptor: Int32, path: String) throws(FileError) -> FileStatus {
        var raw = stat()
        try call("fstat", .inspect, path) { fstat(descriptor, &raw) }
        return FileStatus(raw)
    }

    /// Whether something is at `path` (a symbolic link counts when its target exists).
    package static func exists(_ path: String) -> Bool { (try? status(path)) != nil }

    package static func isDirectory(_ path: String) -> Bool { (try? status(path))?.kind == .directory }

    /// The size in bytes; `nil` when there is no such file.
    package static func size(_ path: String) -> Int? { (try? status(path))?.size }

    /// Seconds since 1970; `nil` when there is no such file.
    package static func modificationTime(_ path: String) -> Double? { (try? status(path))?.modificationTime }

    /// Fails unless this process may write in `path` (a read-only mount, no permission), so
    /// that a service learns it at start rather than when its first crash report is lost.
    package static func checkWritable(_ path: String) throws(FileError) {
        try call("access", .write, path) { access(path, W_OK) }
    }

    /// `mkdir -p`: creates the directory and its missing parents with `mode` (0700 by default:
    /// reports and stored choices are the service's business only). Fine if it exists;
    /// fails when something that is not a directory is in the way.
    package static func createDirectory(_ path: String, mode: mode_t = 0o700) throws(FileError) {
        let code: Int32
        do throws(SystemCallError) {
            _ = try SystemCall.run("mkdir") { mkdir(path, mode) }
            return
        } catch {
            code = error.errno
        }
        switch code {
        case EEXIST:
            guard isDirectory(path) else { throw FileError(.createDirectory, path, errno: ENOTDIR) }
        case ENOENT:
            let parent = parentDirectory(path)
            guard parent != path, !parent.isEmpty else { throw FileError(.createDirectory, path, errno: code) }
            try createDirectory(parent, mode: mode)
            do throws(SystemCallError) {
                _ = try SystemCall.run("mkdir") { mkdir(path, mode) }
            } catch let error where error.errno == EEXIST {
                // Made meanwhile by another writer: fine when it is a directory.
                guard isDirectory(path) else { throw FileError(.createDirectory, path, errno: ENOTDIR) }
            } catch {
                throw FileError(.createDirectory, path, error)
            }
        default:
            throw FileError(.createDirectory, path, errno: code)
        }
    }

    /// The path without its last component (`/a/b/` → `/a`, `b` → `.`, `/a` → `/`).
    package static func parentDirectory(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let parent = trimmed[..<slash]
        return parent.isEmpty ? "/" : String(parent)
    }

    /// The names in a directory, without `.` and `..`, sorted by their bytes.
    package static func contentsOfDirectory(_ path: String) throws(FileError) -> [String] {
        // opendir and readdir answer with a pointer, not a number, so they stay outside
        // SystemCall: readdir's end and its failure are both nil, told apart by `errno`.
        guard let directory = opendir(path) else { throw FileError(.list, path, errno: errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw FileError(.list, path, errno: errno) }
                break
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Removes a file, a symbolic link (not its target) or an empty directory; with `recursive`,
    /// a directory and everything in it. `false` when there was nothing to remove.
    @discardableResult
    package static func remove(_ path: String, recursive: Bool = false) throws(FileError) -> Bool {
        var raw = stat()
        do throws(SystemCallError) {
            _ = try SystemCall.run("lstat") { lstat(path, &raw) }
        } catch let error where error.errno == ENOENT {
            return false
        } catch {
            throw FileError(.remove, path, error)
        }
        if raw.st_mode & S_IFMT == S_IFDIR {
            if recursive {
                for name in try contentsOfDirectory(path) { try remove(path + "/" + name, recursive: true) }
            }
            try removeName("rmdir", path) { rmdir(path) }
        } else {
            try removeName("unlink", path) { unlink(path) }
        }
        return true
    }

    /// `rmdir` or `unlink` of `path`; a name that is gone already (another remover was first)
    /// is no failure.
    private static func removeName(_ call: StaticString, _ path: String, _ body: () -> Int32) throws(FileError) {
        do throws(SystemCallError) {
            _ = try SystemCall.run(call, body)
        } catch let error where error.errno == ENOENT {
            // Removed already.
        } catch {
            throw FileError(.remove, path, error)
        }
    }

    /// `rename(2)`: atomic within one file system, replacing what is at `destination`.
    package static func rename(_ source: String, to destination: String) throws(FileError) {
        try call("rename", .rename, source) { Glibc.rename(source, destination) }
    }

    /// ``SystemCall/run(_:retryingInterrupts:_:)`` for a file operation: a failure is thrown as
    /// the ``FileError`` of `action` on `path`.
    @inline(__always)
    @discardableResult
    static func call<Result: SignedInteger>(
        _ name: StaticString, _ action: FileError.Action, _ path: String, _ body: () -> Result
    ) throws(FileError) -> Result {
        do throws(SystemCallError) {
            return try SystemCall.run(name, body)
        } catch {
            throw FileError(action, path, error)
        }
    }
}
