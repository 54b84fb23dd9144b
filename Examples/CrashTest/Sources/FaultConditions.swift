import CrashReporter
import Foundation
import Synchronization

// Conditions a crash command sets up just before it crashes, for the tests of faults around the
// crash path (docs/signal-safety.md, "Faults while writing"). Each is asked for by a variable.

/// Breadcrumbs recorded by the threads `CRASH_TEST_BREADCRUMB_THREADS` starts.
let hammered = Atomic<Int>(0)

/// Sets up what the environment asks for, in this order:
/// - `CRASH_TEST_BREADCRUMB_THREADS=N`: N threads `crumbs-1`… record breadcrumbs without pause
///   (message `crumb.T.I`, data `thread=T`, `index=I`) and go on while the process crashes;
/// - `CRASH_TEST_WAIT_UNTIL_GONE=PATH`: waits until `start`'s background work is done (it writes
///   into the state directory, so a removal meanwhile could race it), says so on stdout and waits
///   (30 s at most) until PATH is gone (a test removes the state directory meanwhile);
/// - `CRASH_TEST_FILL_DESCRIPTORS=1`: waits until `start`'s background work is done (its first
///   jobs on the executors may need a descriptor of libdispatch's), then opens /dev/null until the
///   descriptor table is full.
func prepareFaultConditions() {
    let environment = ProcessInfo.processInfo.environment
    if let count = Int(environment["CRASH_TEST_BREADCRUMB_THREADS"] ?? ""), count > 0 {
        for t in 1...count {
            startThread(named: "crumbs-\(t)") {
                var i = 0
                while true {
                    Breadcrumbs.record(
                        "crumb.\(t).\(i)", category: "hammer", data: [("thread", String(t)), ("index", String(i))])
                    hammered.add(1, ordering: .relaxed)
                    i += 1
                }
            }
        }
        while hammered.load(ordering: .relaxed) < 1000 * count { usleep(100) }
    }
    if let path = environment["CRASH_TEST_WAIT_UNTIL_GONE"] {
        _ = CrashReporter.lastRun  // waits for start's background work
        print("crash-test: waiting for \(path) to go")
        fflush(nil)
        for _ in 0..<30_000 where access(path, F_OK) == 0 { usleep(1000) }
    }
    if environment["CRASH_TEST_FILL_DESCRIPTORS"] == "1" {
        _ = CrashReporter.lastRun  // waits for start's background work
        var opened = 0
        while open("/dev/null", O_RDONLY) >= 0 { opened += 1 }
        let error = errno
        print("crash-test: opened \(opened) descriptors, then errno \(error)")
        fflush(nil)
    }
}
