import Foundation
import Testing

@testable import CrashReporterSupport

/// The outboxes' one folder queue, on real folders.
@Suite("Outbox folder")
struct OutboxFolderTests {
    /// A scratch state directory with a `pending` folder queue of `.item` files in it.
    struct Fixture {
        let root: String
        let queue: OutboxFolder

        init() throws {
            root = try makeScratchDirectory()
            queue = OutboxFolder(directory: root + "/pending", itemSuffix: ".item")
        }

        func folder(_ name: String) -> OutboxFolder { OutboxFolder(directory: root + "/" + name, itemSuffix: ".item") }

        func names(in folder: OutboxFolder) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.directory)) ?? []).sorted()
        }

        /// Sets the file time of an item, in seconds since 1970.
        func date(_ id: String, in folder: OutboxFolder, _ seconds: Double) throws {
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: seconds)], ofItemAtPath: folder.path(of: id))
        }

        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    @Test("items are listed oldest first, by file time then name; other files are not items")
    func order() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let queue = fixture.queue
        #expect(queue.items().isEmpty && !queue.hasItems, "no folder yet: nothing queued")
        for id in ["c", "a", "b", "d"] { try queue.add(Array(id.utf8), id: id) }
        try fixture.date("c", in: queue, 1000)
        try fixture.date("d", in: queue, 3000)
        for id in ["a", "b"] { try fixture.date(id, in: queue, 2000) }
        try queue.save(DeliveryState(attempts: 1), for: "a")
        try Array("x".utf8).write(to: queue.directory + "/notes.txt")
        #expect(queue.items().map(queue.id(of:)) == ["c", "a", "b", "d"])
        #expect(queue.hasItems)
    }

    @Test("an item is added whole, replaces one of the same id, and leaves no temporary file")
    func atomicAdd() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let queue = fixture.queue
        let path = try queue.add(Array("first".utf8), id: "x")
        try queue.add(Array("second".utf8), id: "x")
        #expect(path == fixture.root + "/pending/x.item")
        #expect(try FileSystem.read(path, limit: 100) == Array("second".utf8))
        #expect(fixture.names(in: queue) == ["x.item"])
        #expect(try FileSystem.status(queue.directory).permissions & 0o777 == 0o700)
    }

    @Test("a retry state round-trips in today's format; a missing or damaged one reads as fresh")
    func stateRoundTrip() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let queue = fixture.queue
        try queue.add([1], id: "r")
        let state = DeliveryState(
            attempts: 2, firstAttempt: Timestamp(seconds: 1_795_958_400),
            nextAttempt: Timestamp(seconds: 1_795_958_460), lastError: "HTTP 503")
        try queue.save(state, for: "r")
        #expect(queue.state(of: "r") == state)
        #expect(
            try String(decoding: FileSystem.read(queue.directory + "/r.delivery", limit: 1000), as: UTF8.self)
                == #"{"attempts":2,"first_attempt":"2026-11-29T13:20:00.000Z","last_error":"HTTP 503","#
                + #""next_attempt":"2026-11-29T13:21:00.000Z"}"#)
        #expect(queue.state(of: "none") == DeliveryState())
        try Array("{not json".utf8).write(to: queue.statePath(of: "r"))
        #expect(queue.state(of: "r") == DeliveryState())
    }

    @Test("setting an item aside moves it beside its reason note and drops its retry state")
    func setAside() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let queue = fixture.queue
        let rejected = fixture.folder("rejected")
        try queue.add([1, 2], id: "r")
        try queue.save(DeliveryState(attempts: 3), for: "r")
        let note = RejectionNote(status: 401, reason: "bad key", at: Timestamp(seconds: 1_795_958_405))
        try queue.setAside("r", into: rejected, note: note)
        #expect(fixture.names(in: queue).isEmpty, "neither the item nor its state stays")
        #expect(fixture.names(in: rejected) == ["r.item", "r.reason"])
        #expect(rejected.note(of: "r") == note)
        #expect(
            try String(decoding: FileSystem.read(rejected.notePath(of: "r"), limit: 1000), as: UTF8.self)
                == #"{"at":"2026-11-29T13:20:05.000Z","reason":"bad key","status":401}"#)
        // A file of another name (what a writer could not finish) is set aside under the id given.
        try Array("half".utf8).write(to: queue.directory + "/h.item.failed-28")
        try queue.setAside(
            "h", file: queue.directory + "/h.item.failed-28", into: rejected,
            note: RejectionNote(status: nil, reason: "incomplete", at: Timestamp(seconds: 0)))
        #expect(try FileSystem.read(rejected.path(of: "h"), limit: 100) == Array("half".utf8))
        #expect(rejected.note(of: "h")?.status == nil)
        #expect(queue.note(of: "r") == nil, "a note is read in the folder it was set aside to")
    }

    @Test("moving to a kept folder keeps its newest items only")
    func keepNewest() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let queue = fixture.queue
        let delivered = fixture.folder("delivered")
        for (index, id) in ["a", "b", "c", "d"].enumerated() {
            try queue.add([1], id: id)
            try queue.save(DeliveryState(attempts: 1), for: id)
            try queue.move(id, to: delivered, keepingNewest: 2)
            try fixture.date(id, in: delivered, Double(1000 * (index + 1)))
        }
        #expect(delivered.items().map(delivered.id(of:)) == ["c", "d"])
        #expect(fixture.names(in: queue).isEmpty, "moved with its retry state dropped")
        try queue.add([1], id: "e")
        try queue.move("e", to: fixture.folder("withheld"))
        #expect(fixture.names(in: fixture.folder("withheld")) == ["e.item"])
        #expect(throws: FileError.self) { try queue.move("gone", to: delivered) }
    }

    @Test("removing an item takes its state and note; deleting all leaves only foreign files")
    func deleteAll() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let queue = fixture.queue
        for id in ["a", "b"] {
            try queue.add([1], id: id)
            try queue.save(DeliveryState(attempts: 1), for: id)
        }
        #expect(queue.remove("a"))
        #expect(!queue.remove("a"), "already gone")
        #expect(fixture.names(in: queue) == ["b.delivery", "b.item"])
        try Array("t".utf8).write(to: FileSystem.temporaryPath(for: queue.path(of: "c")))
        try Array("s".utf8).write(to: queue.directory + "/x.session")
        try Array("k".utf8).write(to: queue.directory + "/keep.txt")
        queue.deleteAll { $0.hasSuffix(".session") }
        #expect(fixture.names(in: queue) == ["keep.txt"])
    }

    @Test("stale temporary files go, young ones and items stay")
    func staleTemporaries() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let queue = fixture.queue
        try queue.add([1], id: "a")
        let stale = FileSystem.temporaryPath(for: queue.path(of: "b"))
        let young = FileSystem.temporaryPath(for: queue.path(of: "c"))
        let handlers = queue.directory + "/d.item.tmp"
        for path in [stale, young, handlers] { try Array("t".utf8).write(to: path) }
        let now = Timestamp(seconds: Date().timeIntervalSince1970)
        for path in [stale, handlers] {
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: now.seconds - 120)], ofItemAtPath: path)
        }
        queue.deleteStaleTemporaryFiles(olderThan: .seconds(60), now: now) { $0.hasSuffix(".item.tmp") }
        #expect(fixture.names(in: queue) == ["a.item", OutboxFolder.fileName(young)])
    }
}

extension Array where Element == UInt8 {
    /// Writes the bytes to a file, replacing it (a test's plain write, not the one under test).
    fileprivate func write(to path: String) throws {
        try Data(self).write(to: URL(fileURLWithPath: path))
    }
}
