import CrashReporter
import Foundation

// What crash-test does for the run-record tests (docs/runs.md).

/// Prints `CrashReporter.lastRun` as one line: `crash-test: last run clean, failures 0`,
/// `crash-test: last run crashed <id>, failures 1`, `crash-test: last run abnormal killed,
/// failures 2`, or `crash-test: last run none`.
func printLastRun() {
    guard let last = CrashReporter.lastRun else {
        print("crash-test: last run none")
        fflush(nil)
        return
    }
    let outcome =
        switch last.outcome {
        case .clean: "clean"
        case .crashed(let id): "crashed \(id ?? "without report")"
        case .abnormal(let exit): "abnormal \(exit.rawValue)"
        }
    print("crash-test: last run \(outcome), failures \(last.consecutiveFailures)")
    fflush(nil)
}

/// `oom`: allocates memory a MiB at a time and writes to every page of it, so that it is
/// really used, until the kernel's OOM killer ends the process (in a memory cgroup with a
/// limit, that is soon). Says so first, so that a test knows it got this far.
func allocateMemoryUntilKilled() -> Never {
    print("crash-test: allocating until killed")
    fflush(nil)
    let chunk = 1 << 20
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    var kept: [UnsafeMutableRawPointer] = []
    while true {
        guard let memory = malloc(chunk) else {
            usleep(1000)
            continue
        }
        var offset = 0
        while offset < chunk {
            memory.storeBytes(of: 1, toByteOffset: offset, as: UInt8.self)
            offset += page
        }
        kept.append(memory)
    }
}

/// This thread's CPU time in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`): what `start()` costs,
/// apart from the time the machine gave to others meanwhile.
func threadCPUNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}
