import Foundation
import Testing

@testable import CrashReporterSupport

@Suite("Threads")
struct ThreadTests {
    @Test("a detached thread runs its closure under its name")
    func detachedThread() throws {
        let latch = Latch()
        let seen = Lock<String?>(nil)
        try DetachedThread.start(name: "support-test-thread", stackSize: 16 << 20) {
            let comm = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
            seen.withLock { $0 = comm?.trimmingASCIIWhitespace().description }
            latch.open()
        }
        #expect(latch.wait(timeout: 60))
        #expect(seen.withLock { $0 } == "support-test-th")
    }

    @Test("a lock keeps the state whole under four threads at once")
    func lockUnderContention() throws {
        let lock = Lock(0)
        let done = Lock(0)
        let latch = Latch()
        for index in 0..<4 {
            try DetachedThread.start(name: "lock-\(index)") {
                for _ in 0..<10_000 { lock.withLock { $0 += 1 } }
                if done.withLock({ count -> Int in
                    count += 1
                    return count
                }) == 4 {
                    latch.open()
                }
            }
        }
        #expect(latch.wait(timeout: 60))
        #expect(lock.withLock { $0 } == 40_000)
    }

    @Test("thread names are cut to 15 bytes at a character boundary")
    func threadNames() {
        #expect(DetachedThread.threadName("crash-report-symbolicator") == "crash-report-sy")
        #expect(DetachedThread.threadName("crash-delivery") == "crash-delivery")
        #expect(DetachedThread.threadName("ééééééééé") == "ééééééé")
    }

    @Test("a latch that nobody opens times out; an open one does not wait")
    func latch() {
        let latch = Latch()
        #expect(!latch.isOpen)
        #expect(!latch.wait(timeout: 0.05))
        #expect(!latch.wait(timeout: -1))
        latch.open()
        #expect(latch.isOpen)
        #expect(latch.wait(timeout: 0))
        #expect(latch.wait(timeout: nil))
    }

    @Test("a waitable state's waiter sees the state that workers changed")
    func waitableState() throws {
        let state = WaitableState<[Int]>([])
        for worker in 0..<8 {
            try DetachedThread.start(name: "worker-\(worker)") {
                for step in 0..<100 { state.update { $0.append(worker * 100 + step) } }
            }
        }
        let all = state.wait(timeout: 60) { $0.count == 800 ? $0 : nil }
        #expect(all.map { Set($0) } == Set(0..<800))
        #expect(state.wait(timeout: 0.01) { $0.count > 800 ? true : nil } == nil)
        #expect(state.withLock { $0.count } == 800)
    }

    @Test("a waiter can take work out under the lock, as a worker loop does")
    func jobQueue() throws {
        let jobs = WaitableState<[Int]>([])
        let results = WaitableState<[Int]>([])
        try DetachedThread.start(name: "consumer") {
            while let job = jobs.wait(timeout: 60, until: { $0.isEmpty ? nil : $0.removeFirst() }), job >= 0 {
                results.update { $0.append(job * 2) }
            }
        }
        for job in [1, 2, 3, -1] { jobs.update { $0.append(job) } }
        #expect(results.wait(timeout: 60) { $0.count == 3 ? $0 : nil } == [2, 4, 6])
    }
}
