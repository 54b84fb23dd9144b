import CrashReporterSupport
import Foundation
import TestSupport
import Testing

/// `FileSystem.readSmall`: what `start` reads from `/proc` and the run records.
struct ReadSmallTests {
    @Test func readsWholeSmallFilesAndRefusesLargerOnes() throws {
        let directory = TempDirectory()
        let path = directory.path + "/f"
        try Data("0123456789".utf8).write(to: URL(fileURLWithPath: path))
        #expect(FileSystem.readSmall(path, limit: 10) == Array("0123456789".utf8))
        #expect(FileSystem.readSmall(path, limit: 9) == nil, "one byte too many")
        #expect(FileSystem.readSmall(directory.path + "/missing") == nil)
        // A /proc file says size 0 and still reads whole.
        let stat = try #require(FileSystem.readSmall("/proc/self/stat"))
        #expect(String(decoding: stat, as: UTF8.self).hasPrefix("\(getpid()) ("))
    }
}
