import CCrashReporter
import Foundation
import Testing

@testable import CrashReporter

/// A private ring, so that no other test's breadcrumbs land in it.
final class TestRing: @unchecked Sendable {
    let pointer: OpaquePointer

    init(capacity: UInt32) throws {
        pointer = try #require(scr_ring_create(capacity))
    }

    deinit { scr_ring_destroy(pointer) }

    func record(
        _ message: String, category: String = "default", level: BreadcrumbLevel = .info,
        data: [(key: String, value: String)] = []
    ) {
        Breadcrumbs.record(into: pointer, message, category: category, level: level, data: data)
    }

    /// Reads the ring the way the signal handler does.
    func snapshot() throws -> (items: [[String: Any]], torn: Int, capacity: Int) {
        try CrashReporterTests.snapshot(pointer)
    }
}

func snapshot(_ ring: OpaquePointer) throws -> (items: [[String: Any]], torn: Int, capacity: Int) {
    var buffer = [CChar](repeating: 0, count: 4 << 20)
    let length = scr_ring_write_json_to(ring, &buffer, buffer.count)
    try #require(length >= 0, "the ring did not fit the buffer")
    let data = Data(bytes: buffer, count: length)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return (object["items"] as? [[String: Any]] ?? [], object["torn"] as? Int ?? -1, object["capacity"] as? Int ?? -1)
}

@Suite("Breadcrumb ring")
struct BreadcrumbRingTests {
    @Test("keeps the newest N, oldest first, with every field")
    func keepsNewest() throws {
        let ring = try TestRing(capacity: 10)
        for i in 0..<25 {
            ring.record("event.\(i)", category: "test", level: .warning, data: [("n", "\(i)"), ("k2", "v2")])
        }
        let read = try ring.snapshot()
        #expect(read.capacity == 10)
        #expect(read.torn == 0)
        #expect(read.items.map { $0["message"] as? String } == (15..<25).map { "event.\($0)" })
        let last = try #require(read.items.last)
        #expect(last["category"] as? String == "test")
        #expect(last["level"] as? String == "warning")
        #expect(last["data"] as? [String: String] == ["n": "24", "k2": "v2"])
        let times = read.items.compactMap { $0["timestamp_ms"] as? Int }
        #expect(times == times.sorted())
        #expect(abs(Double(times.last ?? 0) / 1000 - Date().timeIntervalSince1970) < 60)
    }

    @Test("cuts fields to their bounds on a character boundary and keeps at most four pairs")
    func truncates() throws {
        let ring = try TestRing(capacity: 4)
        let long = String(repeating: "é", count: 200)  // 2 bytes each
        let pairs = (0..<6).map { (key: "key\($0)" + String(repeating: "k", count: 40), value: long) }
        ring.record(long, category: long, data: pairs)
        let item = try #require(try ring.snapshot().items.first)
        let message = item["message"] as? String ?? ""
        let category = item["category"] as? String ?? ""
        #expect(message.utf8.count == 126 && message.allSatisfy { $0 == "é" })
        #expect(category.utf8.count == 30)
        let data = item["data"] as? [String: String] ?? [:]
        #expect(data.count == 4)
        for (key, value) in data {
            #expect(key.utf8.count == Int(SCR_KEY_MAX))
            #expect(value.utf8.count <= Int(SCR_VALUE_MAX) && value.allSatisfy { $0 == "é" })
        }
    }

    @Test("a slot claimed and not yet published is torn; published, it is whole with its pairs")
    func claimThenPublish() throws {
        let ring = try TestRing(capacity: 4)
        let claim = scr_ring_begin(ring.pointer, 2, "c", 1, "being written", 13)
        let slot = try #require(claim.slot)
        scr_ring_add_pair(slot, 0, "k", 1, "v", 1)
        var read = try ring.snapshot()
        #expect(read.items.isEmpty && read.torn == 1, "\(read.items)")
        scr_ring_add_pair(slot, 1, "k2", 2, "v2", 2)
        scr_ring_add_pair(slot, UInt8(SCR_MAX_PAIRS), "past", 4, "four", 4)  // ignored
        scr_ring_publish(claim, 2)
        read = try ring.snapshot()
        #expect(read.torn == 0)
        let item = try #require(read.items.first)
        #expect(item["message"] as? String == "being written")
        #expect(item["data"] as? [String: String] == ["k": "v", "k2": "v2"])
    }

    @Test("capacity 0 records nothing")
    func off() throws {
        let ring = try TestRing(capacity: 0)
        ring.record("ignored")
        #expect(try ring.snapshot().items.isEmpty)
    }

    @Test("concurrent producers wrapping the ring many times: each kept slot is whole and in order")
    func concurrentProducers() async throws {
        let capacity = 64
        let ring = try TestRing(capacity: UInt32(capacity))
        let producers = 4
        let perProducer = 20_000
        // A reader snapshots while the producers run: every slot it keeps must be consistent.
        let reader = Task.detached { () -> Int in
            var checked = 0
            for _ in 0..<200 {
                guard let read = try? ring.snapshot() else { continue }
                for item in read.items {
                    let message = item["message"] as? String ?? ""
                    let data = item["data"] as? [String: String] ?? [:]
                    // A mixed slot would pair one producer's message with another's data.
                    if "p\(data["p"] ?? "?")-\(data["n"] ?? "?")" != message { return -1 }
                    checked += 1
                }
                if read.items.count + read.torn > capacity { return -1 }
            }
            return checked
        }
        await withTaskGroup(of: Void.self) { group in
            for p in 0..<producers {
                group.addTask {
                    for n in 0..<perProducer {
                        ring.record("p\(p)-\(n)", category: "load", data: [("p", "\(p)"), ("n", "\(n)")])
                    }
                }
            }
        }
        let checked = await reader.value
        #expect(checked >= 0, "a snapshot held a mixed or surplus slot")

        let final = try ring.snapshot()
        #expect(final.torn == 0, "no writer is active any more")
        #expect(final.items.count == capacity)
        // Per producer, the sequence numbers kept are strictly increasing.
        var last: [String: Int] = [:]
        for item in final.items {
            let data = item["data"] as? [String: String] ?? [:]
            let p = data["p"] ?? "", n = Int(data["n"] ?? "") ?? -1
            #expect(n > last[p, default: -1], "out of order for producer \(p)")
            last[p] = n
        }
    }
}
