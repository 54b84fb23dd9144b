import CrashReporterSupport
import Foundation
import TestSupport
import Testing

@testable import Tracking
@testable import TrackingEventsAPI

@Suite("Event queue")
struct EventQueueTests {
    let dir = TempDirectory()
    var path: String { dir.path + "/analytics/events.queue" }

    func event(_ n: Int, epoch: UInt64 = 1) -> QueuedEvent {
        QueuedEvent(id: UUIDBytes.random(), epoch: epoch, json: Array(#"{"name":"e\#(n)"}"#.utf8))
    }

    func lineCount() -> Int {
        (dir.contents("analytics/events.queue") ?? "").split(separator: "\n", omittingEmptySubsequences: true).count
    }

    @Test("no file is made unless asked")
    func noFileWithoutCreate() throws {
        #expect(try EventQueue(path: path, capacity: 10, create: false) == nil)
        #expect(dir.files.isEmpty)
    }

    @Test("appends add lines and survive a reopen in order")
    func appendAndReplay() throws {
        var queue = try #require(try EventQueue(path: path, capacity: 10, create: true))
        let events = (0..<5).map { event($0) }
        for e in events { try queue.append(e) }
        #expect(lineCount() == 5)
        queue.close()
        let reopened = try #require(try EventQueue(path: path, capacity: 10, create: false))
        #expect(Array(reopened.events) == events)
        #expect(reopened.skippedOnOpen == 0)
    }

    @Test("appending never rewrites the file: earlier bytes stay where they were")
    func appendOnly() throws {
        var queue = try #require(try EventQueue(path: path, capacity: 100, create: true))
        try queue.append(event(0))
        let inodeBefore = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        let before = try #require(dir.contents("analytics/events.queue"))
        for n in 1..<20 { try queue.append(event(n)) }
        let after = try #require(dir.contents("analytics/events.queue"))
        let inodeAfter = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        #expect(after.hasPrefix(before))
        #expect(inodeBefore == inodeAfter)
    }

    @Test("a torn tail is skipped, cut off, and new lines follow cleanly")
    func tornTail() throws {
        var queue = try #require(try EventQueue(path: path, capacity: 10, create: true))
        let kept = [event(0), event(1)]
        for e in kept { try queue.append(e) }
        queue.close()
        // What a kill -9 in the middle of write(2) leaves: half a line, no newline.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("1 \(UUID().uuidString.lowercased()) {\"name\":\"tor".utf8))
        try handle.close()

        var reopened = try #require(try EventQueue(path: path, capacity: 10, create: false))
        #expect(Array(reopened.events) == kept)
        #expect(reopened.skippedOnOpen == 1)
        let next = event(2)
        try reopened.append(next)
        reopened.close()
        let third = try #require(try EventQueue(path: path, capacity: 10, create: false))
        #expect(Array(third.events) == kept + [next])
        #expect(third.skippedOnOpen == 0)
    }

    @Test("a compaction's leftover temporary file is removed at open")
    func staleTemporaryFile() throws {
        var queue = try #require(try EventQueue(path: path, capacity: 10, create: true))
        try queue.append(event(0))
        queue.close()
        try Data("1 x {}\n".utf8).write(to: URL(fileURLWithPath: path + ".tmp-99999"))
        let reopened = try #require(try EventQueue(path: path, capacity: 10, create: false))
        #expect(reopened.count == 1)
        #expect(dir.files == ["analytics/events.queue"])
    }

    @Test("damaged lines in the middle are skipped, the rest kept")
    func damagedMiddle() throws {
        let a = event(0)
        let b = event(1)
        let text =
            "1 \(a.id) {\"name\":\"e0\"}\n"
            + "garbage line\n"
            + "1 not-a-uuid-at-all-not-a-uuid-at-all0 {}\n"
            + "1 \(UUID().uuidString.lowercased()) {\"broken\": \n"
            + "\u{0}\u{0}\u{0}\n"
            + "1 \(b.id) {\"name\":\"e1\"}\n"
        try FileManager.default.createDirectory(atPath: dir.path + "/analytics", withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let queue = try #require(try EventQueue(path: path, capacity: 10, create: false))
        #expect(queue.events.map(\.id) == [a.id, b.id])
        #expect(queue.skippedOnOpen == 4)
        #expect(lineCount() == 2)
    }

    @Test("a file larger than any queue the provider writes is damaged beyond use: it starts afresh")
    func oversizedFile() throws {
        let line = Data("1 \(UUID().uuidString.lowercased()) {\"name\":\"e\"}\n".utf8)
        // More than 2,002 lines of 8 KiB and a prefix, the most a queue of 1,000 ever holds.
        let lines = (2 * 1000 + 2) * (EventLimits.maxEventBytes + 64) / line.count + 1
        var text = Data(capacity: lines * line.count)
        for _ in 0..<lines { text.append(line) }
        try FileManager.default.createDirectory(atPath: dir.path + "/analytics", withIntermediateDirectories: true)
        try text.write(to: URL(fileURLWithPath: path))
        var queue = try #require(try EventQueue(path: path, capacity: 10, create: false))
        #expect(queue.count == 0)
        #expect(queue.skippedOnOpen == 1)
        #expect(lineCount() == 0)
        let next = event(0)
        try queue.append(next)
        queue.close()
        let reopened = try #require(try EventQueue(path: path, capacity: 10, create: false))
        #expect(Array(reopened.events) == [next])
    }

    @Test("at most capacity events, the oldest dropped, in memory and after a reopen")
    func capacity() throws {
        var queue = try #require(try EventQueue(path: path, capacity: 10, create: true))
        let events = (0..<25).map { event($0) }
        for e in events { try queue.append(e) }
        #expect(Array(queue.events) == Array(events.suffix(10)))
        // The file is compacted once it holds twice as many lines as it may keep.
        #expect(lineCount() <= 20)
        queue.close()
        let reopened = try #require(try EventQueue(path: path, capacity: 10, create: false))
        #expect(Array(reopened.events) == Array(events.suffix(10)))
    }

    @Test("removing sent events and other epochs rewrites the file")
    func removeAndEpochs() throws {
        var queue = try #require(try EventQueue(path: path, capacity: 10, create: true))
        let old = event(0, epoch: 1)
        let a = event(1, epoch: 2)
        let b = event(2, epoch: 2)
        for e in [old, a, b] { try queue.append(e) }
        try queue.keepOnly(epoch: 2)
        #expect(Array(queue.events) == [a, b])
        try queue.remove(ids: [a.id])
        #expect(Array(queue.events) == [b])
        try queue.append(event(3, epoch: 2))
        queue.close()
        let reopened = try #require(try EventQueue(path: path, capacity: 10, create: false))
        #expect(reopened.events.map(\.id).first == b.id)
        #expect(reopened.count == 2)
    }
}

@Suite("Event queue group commit")
struct EventQueueGroupCommitTests {
    let dir = TempDirectory()
    var path: String { dir.path + "/analytics/events.queue" }

    func lines() -> [Substring] {
        (dir.contents("analytics/events.queue") ?? "").split(separator: "\n", omittingEmptySubsequences: true)
    }

    @Test("a burst past the first appends waits in memory, in order, and is written in one go")
    func burst() throws {
        var queue = try #require(try EventQueue(path: path, capacity: 1000, create: true))
        queue.groupCommit = true
        let events = (0..<100).map { QueuedEvent(id: UUIDBytes.random(), epoch: 1, json: Array(#"{"n":\#($0)}"#.utf8)) }
        for e in events { try queue.append(e) }
        // However slow the machine, the first appends of a window go to the file at once.
        #expect(lines().count >= 1 && lines().count < 100)
        #expect(queue.hasPending)
        #expect(Array(queue.events) == events)
        try queue.writePending()
        #expect(!queue.hasPending)
        #expect(lines().count == 100)
        queue.close()
        let reopened = try #require(try EventQueue(path: path, capacity: 1000, create: false))
        #expect(Array(reopened.events) == events)
    }

    @Test("a rewrite takes the waiting lines along; close drops them")
    func rewriteAndClose() throws {
        var queue = try #require(try EventQueue(path: path, capacity: 1000, create: true))
        queue.groupCommit = true
        let events = (0..<50).map { QueuedEvent(id: UUIDBytes.random(), epoch: 1, json: Array(#"{"n":\#($0)}"#.utf8)) }
        for e in events { try queue.append(e) }
        try queue.remove(ids: [events[0].id])
        #expect(!queue.hasPending)
        #expect(lines().count == 49)
        for n in 0..<50 {
            try queue.append(QueuedEvent(id: UUIDBytes.random(), epoch: 1, json: Array(#"{"m":\#(n)}"#.utf8)))
        }
        #expect(queue.hasPending)
        queue.close()
        let reopened = try #require(try EventQueue(path: path, capacity: 1000, create: false))
        #expect(reopened.count < 99)
        #expect(Array(reopened.events.prefix(49)) == Array(events.dropFirst()))
    }
}

@Suite("Event queue in a killed process")
struct EventQueueKillTests {
    @Test("a process killed with SIGKILL while appending and compacting leaves a queue that reopens")
    func killNine() async throws {
        let dir = TempDirectory()
        let path = dir.path + "/analytics/events.queue"
        await #expect(processExitsWith: .signal(SIGKILL)) { [path = path as String] in
            var queue = try! EventQueue(path: path, capacity: 1000, create: true)!
            let json = Array(#"{"name":"item_viewed","properties":{"n":1}}"#.utf8)
            try! queue.append(QueuedEvent(id: UUIDBytes.random(), epoch: 1, json: json))
            // The kill lands at an arbitrary point: in a write, a compaction or between them.
            Thread.detachNewThread {
                usleep(30_000)
                kill(getpid(), SIGKILL)
            }
            while true {
                try! queue.append(QueuedEvent(id: UUIDBytes.random(), epoch: 1, json: json))
            }
        }
        let queue = try #require(try EventQueue(path: path, capacity: 1000, create: false))
        #expect(queue.count > 0 && queue.count <= 1000)
        #expect(queue.skippedOnOpen <= 1)
        #expect(queue.events.allSatisfy { $0.epoch == 1 && $0.json.first == UInt8(ascii: "{") })
        // A temporary file of an interrupted compaction is cleaned up.
        #expect(dir.files == ["analytics/events.queue"])
    }
}
