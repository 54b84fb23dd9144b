import CCrashTestSupport
import CrashReporter
import Foundation
import Synchronization

// The commands that block the concurrency pool's threads, and a Dispatch-like thread started
// before the reporter.

/// How many of `pool-block`'s tasks are blocking their thread.
let blockingTasks = Atomic<Int>(0)

/// `pool-block TASKS SECONDS`: TASKS tasks (0: one per CPU, the pool's width) each block their
/// pool thread in a sleep for good; once all do, `CRASH_TEST_SNAPSHOT_REASON` asks for a
/// snapshot. No heartbeat is ticked by this code: only the reporter's own pool watch can see the
/// starved pool. Exits after SECONDS.
func blockPool(tasks: Int, seconds: Double) -> Never {
    let count = tasks > 0 ? tasks : ProcessInfo.processInfo.activeProcessorCount
    for _ in 0..<count {
        Task.detached {
            blockingTasks.add(1, ordering: .sequentiallyConsistent)
            crash_test_block_executor()
        }
    }
    while blockingTasks.load(ordering: .sequentiallyConsistent) < count { usleep(1000) }
    usleep(100_000)  // each is inside its sleep by now
    print("crash-test: \(count) pool threads blocked")
    fflush(nil)
    if let reason = ProcessInfo.processInfo.environment["CRASH_TEST_SNAPSHOT_REASON"] {
        let id = CrashReporter.snapshot(reason: reason)
        print("crash-test: snapshot \(id ?? "not written")")
        fflush(nil)
    }
    Thread.sleep(forTimeInterval: seconds)
    exit(0)
}

/// `main-actor-block SECONDS`: the main thread drains the main queue (`dispatchMain()`), so the
/// reporter's main-actor watch arms; half a second later a main-actor job blocks for good. The
/// process exits after SECONDS.
func blockMainActor(seconds: Double) -> Never {
    startThread(named: "exit-timer") {
        Thread.sleep(forTimeInterval: seconds)
        exit(0)
    }
    Task { @MainActor in
        try? await Task.sleep(for: .milliseconds(500))
        print("crash-test: main actor blocked")
        fflush(nil)
        crash_test_block_executor()
    }
    dispatchMain()
}

/// Whether `early-blanket` is about to park.
let earlyBlanketParked = Atomic<Bool>(false)

/// `CRASH_TEST_EARLY_BLANKET=1`: a thread named `early-blanket` blocks every signal and sleeps,
/// started and parked before `start()`, as the pool thread an async main calls `start()` from.
func startEarlyBlanketThread() {
    startThread(named: "early-blanket") {
        earlyBlanketParked.store(true, ordering: .sequentiallyConsistent)
        crash_test_park(5)
    }
    while !earlyBlanketParked.load(ordering: .sequentiallyConsistent) { usleep(1000) }
    usleep(20_000)  // inside its sleep, every signal blocked, by now
}

/// `idle SECONDS`: the service waits for work that never comes (the benchmark's idle cost of the
/// reporter's watch): settles for a second, then prints the CPU time the whole process used while
/// idle for SECONDS (`idle_cpu_us=`, user and system, every thread) and exits. With
/// `CRASH_TEST_IDLE_POOL=1` one task runs first, as in a service that uses the pool at all.
func idle(seconds: Double) -> Never {
    if ProcessInfo.processInfo.environment["CRASH_TEST_IDLE_POOL"] == "1" {
        Task.detached { blockingTasks.add(1, ordering: .sequentiallyConsistent) }
    }
    Thread.sleep(forTimeInterval: 1)
    let before = processCPUMicroseconds()
    Thread.sleep(forTimeInterval: seconds)
    print("idle_cpu_us=\(processCPUMicroseconds() - before)")
    exit(0)
}

/// CPU time of the whole process (every thread, user and system), in microseconds.
func processCPUMicroseconds() -> Int {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return Int(now.tv_sec) * 1_000_000 + Int(now.tv_nsec) / 1000
}
