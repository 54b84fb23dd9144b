import CCrashTestSupport
import CrashReporter
import Foundation
import Synchronization

// The commands that show the other threads: parked threads, a hang, a library opened late.

/// Starts `body` on a thread named `name` (the kernel's 15-byte thread name).
func startThread(named name: String, _ body: @escaping @Sendable () -> Void) {
    let thread = Thread {
        crash_test_name_thread(name)
        body()
    }
    thread.start()
}

/// How many of `threads`' threads are parked.
let parkedThreads = Atomic<Int>(0)

/// `threads N [KIND]`: N threads named `parked-1`… wait in four different places (a mutex
/// that is never released, a sleep, a blocking read, a busy loop); with `--blocked` one more,
/// `blocked`, sleeps with the capture signal blocked by name; with `--blanket` two more,
/// `blanket` and `blanket-proc`, sleep with every signal blocked (pthread_sigmask, sigprocmask),
/// as Dispatch's workers do. Once all are parked, the main thread crashes by KIND (default
/// segfault).
func crashWithParkedThreads(count: Int, blocked: Bool, blanket: Bool, kind: CrashKind) -> Never {
    crash_test_take_lock()
    let total =
        count + (blocked ? 1 : 0) + (blanket ? 2 : 0)
        + (ProcessInfo.processInfo.environment["CRASH_TEST_EXTRA_THREAD_NAME"] != nil ? 1 : 0)
    let allSleeping = ProcessInfo.processInfo.environment["CRASH_TEST_PARK_ALL_SLEEPING"] == "1"
    for index in 0..<count {
        startThread(named: "parked-\(index + 1)") {
            parkedThreads.add(1, ordering: .sequentiallyConsistent)
            crash_test_park(allSleeping ? 1 : Int32(index % 4))
        }
    }
    // A thread whose name could be personal data, for the privacy tests.
    let extraName = ProcessInfo.processInfo.environment["CRASH_TEST_EXTRA_THREAD_NAME"]
    if let extraName {
        startThread(named: extraName) {
            parkedThreads.add(1, ordering: .sequentiallyConsistent)
            crash_test_park(1)
        }
    }
    if blocked {
        crash_test_set_named_signal(CrashReporter.captureSignal ?? 0)
        startThread(named: "blocked") {
            parkedThreads.add(1, ordering: .sequentiallyConsistent)
            crash_test_park(4)
        }
    }
    if blanket {
        for (name, how) in [("blanket", Int32(5)), ("blanket-proc", 6)] {
            startThread(named: name) {
                parkedThreads.add(1, ordering: .sequentiallyConsistent)
                crash_test_park(how)
            }
        }
    }
    while parkedThreads.load(ordering: .sequentiallyConsistent) < total { usleep(1000) }
    usleep(100_000)  // each is inside its wait by now
    Breadcrumbs.record("crash.\(kind.rawValue)", category: "crash-test", level: .error)
    markFaultTime()
    kind.perform()
}

/// `hang SECONDS`: `lock-holder` takes a lock and blocks for good holding it; `orders-loop`
/// ticks the heartbeat `orders-loop` every 10 ms for 300 ms, then waits for that lock, so its
/// heartbeat stops. The watchdog (`CRASH_REPORTER_HANG_TIMEOUT_SECONDS`) writes one hang report; the
/// process exits after SECONDS.
func hang(seconds: Double) -> Never {
    guard let beat = CrashReporter.heartbeat("orders-loop") else {
        FileHandle.standardError.write(Data("crash-test: no heartbeat (the reporter is off)\n".utf8))
        exit(1)
    }
    startThread(named: "lock-holder") { crash_test_hold_hang_lock() }
    startThread(named: "orders-loop") {
        for _ in 0..<30 {
            beat.tick()
            usleep(10_000)
        }
        crash_test_wait_for_hang_lock()
    }
    print("crash-test: hanging for \(seconds) s")
    fflush(nil)
    Thread.sleep(forTimeInterval: seconds)
    print("crash-test: hung")
    exit(0)
}

/// `dlopen-crash PATH`: opens the library at PATH (Examples/CrashTest/Library) after the
/// reporter started and crashes inside it.
func crashInOpenedLibrary(path: String) -> Never {
    guard let handle = dlopen(path, RTLD_NOW) else {
        fail("cannot open \(path): \(String(cString: dlerror()))")
    }
    guard let symbol = dlsym(handle, "crash_library_entry") else { fail("\(path) has no crash_library_entry") }
    let entry = unsafeBitCast(symbol, to: (@convention(c) () -> Int32).self)
    print(entry())
    fail("the library returned instead of crashing")
}
