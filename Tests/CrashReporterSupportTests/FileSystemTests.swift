import Foundation
import Testing

@testable import CrashReporterSupport

@Suite("Files")
struct FileSystemTests {
    private func mode(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    private func contents(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    @Test("an atomic write replaces the file, with mode 0600, and leaves no temporary file", arguments: [false, true])
    func atomicWrite(durable: Bool) throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/state"
        try FileSystem.writeAtomically(Array("first".utf8), to: path, durable: durable)
        #expect(contents(path) == Array("first".utf8))
        #expect(try mode(path) == 0o600)
        try FileSystem.writeAtomically(Data("second".utf8), to: path, durable: durable)
        #expect(contents(path) == Array("second".utf8))
        try FileSystem.writeAtomically([UInt8](), to: path, mode: 0o644)
        #expect(contents(path) == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["state"])
    }

    @Test("a failed atomic write names the file and leaves nothing behind")
    func atomicWriteFailures() throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/file"
        try FileSystem.writeAtomically(Array("x".utf8), to: file)
        // A regular file used as a directory: a real ENOTDIR even for root.
        #expect {
            try FileSystem.writeAtomically(Array("y".utf8), to: file + "/inner")
        } throws: { error in
            let error = error as? FileError
            return error?.errno == ENOTDIR && error?.description == "cannot write \(file)/inner: not a directory"
        }
        // A directory where the file should go: the rename fails, the temporary file goes.
        try FileManager.default.createDirectory(atPath: directory + "/taken/sub", withIntermediateDirectories: true)
        #expect {
            try FileSystem.writeAtomically(Array("y".utf8), to: directory + "/taken")
        } throws: { error in
            (error as? FileError)?.action == .write && (error as? FileError)?.path == directory + "/taken"
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["file", "taken"])
        // /proc refuses new files whoever asks.
        #expect(throws: FileError.self) { try FileSystem.writeAtomically([1], to: "/proc/support-test") }
    }

    @Test("an exclusive create never overwrites, and says so")
    func createExclusively() throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/id.crash"
        #expect(try FileSystem.createExclusively(Array("one".utf8), at: path) == .created)
        #expect(try FileSystem.createExclusively(Array("two".utf8), at: path) == .alreadyExisted)
        #expect(contents(path) == Array("one".utf8))
        #expect(try mode(path) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["id.crash"])
    }

    @Test("of many threads creating one name at once, exactly one creates it")
    func createExclusivelyRaces() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outcomes = try await withThrowingTaskGroup(of: FileSystem.CreateOutcome.self) { group in
            for index in 0..<16 {
                group.addTask { try FileSystem.createExclusively(Array("\(index)".utf8), at: directory + "/one") }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == .created }.count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["one"])
    }

    @Test("reads whole regular files up to the limit")
    func read() throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/report"
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try FileSystem.read(path, limit: bytes.count) == bytes)
        #expect {
            try FileSystem.read(path, limit: bytes.count - 1)
        } throws: { error in
            (error as? FileError)?.reason == .tooLarge(limit: bytes.count - 1)
                && "\(error)" == "cannot read \(path): larger than \(bytes.count - 1) bytes"
        }
        try Data().write(to: URL(fileURLWithPath: path))
        #expect(try FileSystem.read(path, limit: 0) == [])
        #expect {
            try FileSystem.read(directory + "/missing", limit: 10)
        } throws: { error in
            "\(error)" == "cannot read \(directory)/missing: no such file or directory"
        }
    }

    @Test("refuses a FIFO without hanging, and a directory")
    func refusesSpecialFiles() throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect {
            try FileSystem.read(fifo, limit: 100)
        } throws: { error in
            (error as? FileError)?.reason == .notRegularFile && "\(error)" == "cannot read \(fifo): not a regular file"
        }
        #expect(throws: FileError(.read, directory, .notRegularFile)) { try FileSystem.read(directory, limit: 100) }
    }

    @Test("refuses a file that grows past the limit while it is read")
    func refusesGrowth() throws {
        // /proc files say they are empty, then read as more: what a file growing between the
        // size check and the read looks like.
        let status = try FileSystem.status("/proc/self/status")
        #expect(status.size == 0 && status.kind == .regular)
        #expect(throws: FileError("/proc/self/status", limit: 64)) {
            try FileSystem.read("/proc/self/status", limit: 64)
        }
        let whole = try FileSystem.read("/proc/self/status", limit: 1 << 20)
        #expect(String(decoding: whole, as: UTF8.self).hasPrefix("Name:"))
    }

    @Test("creates directories with their parents, mode 0700, and reports what is in the way")
    func createDirectory() throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let deep = directory + "/a/b/c/"
        try FileSystem.createDirectory(deep)
        try FileSystem.createDirectory(deep)  // exists: fine
        for path in [directory + "/a", directory + "/a/b", directory + "/a/b/c"] {
            #expect(FileSystem.isDirectory(path))
            #expect(try mode(path) == 0o700)
        }
        try FileSystem.createDirectory(directory + "/shared", mode: 0o755)
        #expect(try mode(directory + "/shared") == 0o755)
        try Data().write(to: URL(fileURLWithPath: directory + "/file"))
        #expect(throws: FileError(.createDirectory, directory + "/file", errno: ENOTDIR)) {
            try FileSystem.createDirectory(directory + "/file")
        }
        #expect(throws: FileError(.createDirectory, directory + "/file/sub/deeper", errno: ENOTDIR)) {
            try FileSystem.createDirectory(directory + "/file/sub/deeper")
        }
        #expect(throws: FileError.self) { try FileSystem.createDirectory("/proc/support-test/x") }
        #expect(FileSystem.parentDirectory("/a/b/") == "/a")
        #expect(FileSystem.parentDirectory("/a") == "/")
        #expect(FileSystem.parentDirectory("b") == ".")
    }

    @Test("lists, inspects, renames and removes")
    func directoryOperations() throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileSystem.createDirectory(directory + "/tree/inner")
        for name in ["b", "a", "tree/inner/c"] {
            try FileSystem.writeAtomically(Array(name.utf8), to: directory + "/" + name)
        }
        #expect(symlink(directory + "/a", directory + "/link") == 0)
        #expect(try FileSystem.contentsOfDirectory(directory) == ["a", "b", "link", "tree"])
        #expect(throws: FileError.self) { try FileSystem.contentsOfDirectory(directory + "/a") }

        let status = try FileSystem.status(directory + "/a")
        #expect(status.kind == .regular && status.size == 1 && status.permissions == 0o600)
        #expect(abs(status.modificationTime - Date().timeIntervalSince1970) < 600)
        #expect(FileSystem.size(directory + "/b") == 1)
        #expect(FileSystem.modificationTime(directory + "/missing") == nil)
        #expect(FileSystem.exists(directory + "/link") && !FileSystem.exists(directory + "/missing"))

        try FileSystem.rename(directory + "/b", to: directory + "/renamed")
        #expect(contents(directory + "/renamed") == Array("b".utf8))
        #expect(throws: FileError(.rename, directory + "/b", errno: ENOENT)) {
            try FileSystem.rename(directory + "/b", to: directory + "/c")
        }

        #expect(try FileSystem.remove(directory + "/link"))
        #expect(FileSystem.exists(directory + "/a"))  // the link's target stays
        #expect(try !FileSystem.remove(directory + "/missing"))
        #expect(throws: FileError(.remove, directory + "/tree", errno: ENOTEMPTY)) {
            try FileSystem.remove(directory + "/tree")
        }
        #expect(try FileSystem.remove(directory + "/tree", recursive: true))
        #expect(try FileSystem.contentsOfDirectory(directory) == ["a", "renamed"])
    }

    @Test("appends to an open file")
    func append() throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/events.queue"
        let descriptor = try FileSystem.openForAppending(path)
        defer { close(descriptor) }
        try FileSystem.append(Array("one\n".utf8), to: descriptor, path: path)
        try FileSystem.append(Array("two\n".utf8)[...], to: descriptor, path: path, durable: true)
        #expect(contents(path) == Array("one\ntwo\n".utf8))
        #expect(throws: FileError(.append, path, errno: EBADF)) {
            try FileSystem.append([1], to: -1, path: path)
        }
    }

    @Test("removes only stale temporary files")
    func staleTemporaryFiles() throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let old = Date().addingTimeInterval(-3600)
        for name in ["queue.tmp-12-0", "queue.tmp-13-4", "queue", "x.crash.tmp", "young.tmp-1-1"] {
            try Data([1]).write(to: URL(fileURLWithPath: directory + "/" + name))
            if name != "young.tmp-1-1" {
                try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: directory + "/" + name)
            }
        }
        #expect(FileSystem.removeStaleTemporaryFiles(in: directory, olderThan: 60) == 2)
        #expect(try FileSystem.contentsOfDirectory(directory) == ["queue", "x.crash.tmp", "young.tmp-1-1"])
        let removed = FileSystem.removeStaleTemporaryFiles(in: directory, olderThan: 60) { $0.hasSuffix(".crash.tmp") }
        #expect(removed == 1)
        #expect(FileSystem.removeStaleTemporaryFiles(in: directory + "/missing", olderThan: 0) == 0)
        #expect(
            FileSystem.isTemporaryName(URL(fileURLWithPath: FileSystem.temporaryPath(for: "/x/q")).lastPathComponent))
    }

    @Test("checks that a directory can be written in")
    func writable() throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileSystem.checkWritable(directory)
        // Even root may not write in a process's /proc directory.
        #expect {
            try FileSystem.checkWritable("/proc/1")
        } throws: { error in
            (error as? FileError)?.errno != nil && "\(error)".hasPrefix("cannot write /proc/1: ")
        }
        #expect(throws: FileError(.write, directory + "/missing", errno: ENOENT)) {
            try FileSystem.checkWritable(directory + "/missing")
        }
    }

    @Test("errno text is strerror's, lower-cased, one line")
    func errnoText() {
        #expect(Errno.text(ENOSPC) == "no space left on device")
        #expect(Errno.text(ENOENT) == "no such file or directory")
        #expect(Errno.text(EACCES) == "permission denied")
        #expect(Errno.text(4242) == "error 4242")
        #expect(SystemCallError("read", errno: EBADF).description == "read: " + Errno.text(EBADF))
        #expect(
            SystemCallError("pthread_create", errno: EAGAIN, subject: "x").description
                == "pthread_create x: " + Errno.text(EAGAIN))
    }
}

extension FileError {
    /// A read refused for size.
    fileprivate init(_ path: String, limit: Int) { self.init(.read, path, .tooLarge(limit: limit)) }
}
