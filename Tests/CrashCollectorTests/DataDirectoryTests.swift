import CrashReporterSupport
import Foundation
import TestSupport
import Testing

@testable import crash_collector

#if canImport(Glibc)
    import Glibc
#endif

/// The data directory at start: what cannot be created says why, and only temporary files that
/// no live writer can still own are removed.
@Suite struct DataDirectoryTests {
    private static func configuration(data: String) -> Configuration {
        var configuration = Configuration()
        configuration.dataDirectory = data
        return configuration
    }

    @Test func aDirectoryThatCannotBeMadeIsReportedWithItsCause() throws {
        let root = try CollectorProcess.temporaryDirectory().path
        defer { _ = try? FileSystem.remove(root, recursive: true) }
        let file = root + "/a-file"
        try FileSystem.writeAtomically(Array("x".utf8), to: file)

        // Below a regular file, at a regular file, and a subdirectory blocked by one: each is
        // "not a directory", for the path that could not be made (it used to be EACCES).
        #expect(throws: FileError(.createDirectory, file + "/data", errno: ENOTDIR)) {
            try Collector(configuration: Self.configuration(data: file + "/data"))
        }
        #expect(throws: FileError(.createDirectory, file, errno: ENOTDIR)) {
            try Collector(configuration: Self.configuration(data: file))
        }
        let data = root + "/data"
        try FileSystem.createDirectory(data)
        try FileSystem.writeAtomically(Array("x".utf8), to: data + "/reports")
        #expect(throws: FileError(.createDirectory, data + "/reports", errno: ENOTDIR)) {
            try Collector(configuration: Self.configuration(data: data))
        }

        // The process says so and exits 1.
        let run = try ProgramRun(
            CollectorProcess.binary.path, ["--port", "0", "--data", file + "/data"], errors: .intoOutput)
        #expect(run.status == 1)
        let output = run.text
        #expect(output.contains("cannot create directory \(file)/data: not a directory"), "\(output)")
    }

    @Test func onlyStaleTemporaryFilesAreRemovedAtStart() throws {
        let data = try CollectorProcess.temporaryDirectory().path
        defer { _ = try? FileSystem.remove(data, recursive: true) }
        let id = UUID().uuidString.lowercased()
        let targets = [data + "/reports/\(id).crash", data + "/events-sentry/\(id.filter { $0 != "-" }).json"]
        var stale: [String] = []
        var fresh: [String] = []
        for target in targets {
            try FileSystem.createDirectory(FileSystem.parentDirectory(target))
            // A dead writer's file, older than the limit, and one being written right now.
            let old = FileSystem.temporaryPath(for: target)
            try FileSystem.writeAtomically(Array("old".utf8), to: old)
            let age = DataDirectory.staleTemporarySeconds + 60
            var times = [
                timespec(tv_sec: time(nil) - Int(age), tv_nsec: 0), timespec(tv_sec: time(nil) - Int(age), tv_nsec: 0),
            ]
            #expect(utimensat(AT_FDCWD, old, &times, 0) == 0)
            stale.append(old)
            let new = FileSystem.temporaryPath(for: target)
            try FileSystem.writeAtomically(Array("new".utf8), to: new)
            fresh.append(new)
        }

        let collector = try Collector(configuration: Self.configuration(data: data))
        for path in stale { #expect(!FileSystem.exists(path), "\(path) should have been removed") }
        for path in fresh { #expect(FileSystem.exists(path), "\(path) may still be being written") }
        // A temporary file is never taken for what it will become.
        #expect(collector.reports.all().isEmpty)
        #expect(collector.sentryEvents.storedCount == 0)
    }
}
