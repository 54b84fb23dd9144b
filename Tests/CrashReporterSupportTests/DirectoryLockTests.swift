import Foundation
import Testing

@testable import CrashReporterSupport

/// The outboxes' lock on real files when a holder removes the file (one holder at a time:
/// `DeliveryPolicyTests.lock`).
@Suite("Directory lock")
struct DirectoryLockTests {
    @Test("a waiter that opened the file before its holder removed it locks the file the path names")
    func waiterAfterRemoval() async throws {
        let root = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/a.lock"
        var holder = DirectoryLock(path: path, wait: false)
        #expect(holder != nil)
        let taken = Lock<(done: Bool, lock: DirectoryLock?)>((false, nil))
        let waiter = Thread {
            // Opens the file, then waits in flock for the holder.
            let lock = DirectoryLock(path: path, wait: true)
            taken.withLock { $0 = (true, lock) }
        }
        waiter.start()
        try await Task.sleep(for: .milliseconds(200))
        holder?.removeFile()
        #expect(!FileManager.default.fileExists(atPath: path))
        holder = nil
        let deadline = ContinuousClock.now + .seconds(10)
        while !taken.withLock({ $0.done }) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(taken.withLock { $0.lock } != nil, "the waiter took the lock")
        // The waiter holds the file now at the path, so nobody else can take it.
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(DirectoryLock(path: path, wait: false) == nil, "a second holder beside the waiter")
        _ = holder
    }
}
