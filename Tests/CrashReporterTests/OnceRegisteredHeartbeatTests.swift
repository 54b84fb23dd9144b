import Dispatch
import Glibc
import Synchronization
import Testing

@testable import CrashReporter

/// The pool's heartbeat is registered by one thread, however many probe at once.
@Suite("A heartbeat registered once")
struct OnceRegisteredHeartbeatTests {
    @Test("eight threads asking at once: one registers, the others get nil or the same index")
    func oneRegistrationUnderContention() {
        for _ in 0..<50 {
            let heartbeat = OnceRegisteredHeartbeat()
            let registrations = Atomic<Int>(0)
            let answers = Mutex<[Int32?]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                let answer = heartbeat.index {
                    let count = registrations.add(1, ordering: .sequentiallyConsistent).newValue
                    usleep(2_000)  // a registration takes long enough for the others to arrive
                    return Int32(40 + count)
                }
                answers.withLock { $0.append(answer) }
            }
            #expect(registrations.load(ordering: .sequentiallyConsistent) == 1)
            let given = answers.withLock { $0.compactMap { $0 } }
            #expect(given.allSatisfy { $0 == 41 }, "every index given is the one registered: \(given)")
            #expect(heartbeat.index == 41)
        }
    }

    @Test("a registration that finds no free heartbeat gives the claim back; the next call registers")
    func failedRegistrationIsTriedAgain() {
        let heartbeat = OnceRegisteredHeartbeat()
        #expect(heartbeat.index { nil } == nil)
        #expect(heartbeat.index == nil)
        #expect(heartbeat.index { 7 } == 7)
        let again = heartbeat.index {
            Issue.record("registered twice")
            return 8
        }
        #expect(again == 7)
    }
}
