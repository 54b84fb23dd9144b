import CCrashReporter
import Foundation
import Testing

/// A thread of its own that runs one closure at a time and returns when it is done, so that a
/// test decides which thread records which breadcrumb, and in which order.
private final class RecordingThread: @unchecked Sendable {
    private let given = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private var work: (() -> Void)?  // handed over through the two semaphores

    init() {
        Thread.detachNewThread { [self] in
            while true {
                given.wait()
                guard let work else { return }
                work()
                done.signal()
            }
        }
    }

    func run(_ body: @escaping () -> Void) {
        work = body
        given.signal()
        done.wait()
    }

    func stop() {
        work = nil
        given.signal()
    }

    /// The shard this thread's breadcrumbs go to.
    var shard: UInt32 {
        var shard: UInt32 = 0
        run { shard = scr_breadcrumb_shard() }
        return shard
    }
}

@Suite("Breadcrumb ring shards")
struct BreadcrumbShardTests {
    /// Runs `body` with two threads whose breadcrumbs go to different shards, then stops them.
    private func withThreadsInTwoShards(_ body: (RecordingThread, RecordingThread) throws -> Void) throws {
        let first = RecordingThread()
        defer { first.stop() }
        for _ in 0..<Int(SCR_RING_SHARDS) * 2 {
            let second = RecordingThread()
            defer { second.stop() }
            if second.shard != first.shard { return try body(first, second) }
        }
        Issue.record("no second thread got a shard of its own")
    }

    @Test("two threads in two shards: the newest N over both, oldest first, in the order recorded")
    func newestOverShardsInOrder() throws {
        let ring = try TestRing(capacity: 10)
        try withThreadsInTwoShards { a, b in
            for i in 0..<8 {
                a.run { ring.record("a\(i)") }
                b.run { ring.record("b\(i)") }
            }
            let taking = try ring.snapshot()
            #expect(taking.torn == 0)
            #expect(taking.items.map { $0["message"] as? String } == (3..<8).flatMap { ["a\($0)", "b\($0)"] })

            // One thread alone then has the whole capacity, though its shard holds older ones too.
            for i in 8..<20 { b.run { ring.record("b\(i)") } }
            #expect(try ring.snapshot().items.map { $0["message"] as? String } == (10..<20).map { "b\($0)" })
        }
    }

    @Test("a breadcrumb's time is the wall clock's when it was recorded, to the millisecond")
    func timeIsTheWallClocks() throws {
        let ring = try TestRing(capacity: 4)
        func milliseconds() -> Int { Int((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
        try withThreadsInTwoShards { a, b in
            var spans: [ClosedRange<Int>] = []
            for thread in [a, b, a] {
                let before = milliseconds()
                thread.run { ring.record("timed") }
                spans.append(before...milliseconds())
                Thread.sleep(forTimeInterval: 0.02)
            }
            let times = try ring.snapshot().items.compactMap { $0["timestamp_ms"] as? Int }
            #expect(times.count == 3)
            for (time, span) in zip(times, spans) {
                // One millisecond either side: the wall clock and the counter are read apart.
                #expect((span.lowerBound - 1...span.upperBound + 1).contains(time), "\(time) not in \(span)")
            }
        }
    }
}
