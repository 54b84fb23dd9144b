import CCrashReporter
import CCrashTestSupport
import Foundation
import Synchronization

// Each crash lives in its own non-inlined function, so that the tests can find it by name
// in the report's stack, in debug and in release (-O) builds alike.

/// Values the optimizer cannot see through, so that no crash is folded away at compile time.
@inline(never) @_optimize(none) func opaque<T>(_ value: T) -> T { value }

#if CRASH_TEST_MOVED_CODE
    // A later release of the same service, built by RebuiltGroupingTests with
    // `-Xswiftc -DCRASH_TEST_MOVED_CODE`: this function, called nowhere, moves every crashing
    // function after it, as any edit does, and the version says it is another release. Its
    // crashes must still group with the first build's (docs/grouping.md).
    let crashTestVersion = "1.1.0"

    @inline(never) func movedCodePadding(_ values: [Int]) -> Int {
        var total = 0
        for (index, value) in values.enumerated() where value % 3 != 0 {
            total &+= index &* value &+ values.count
            if total > 1_000_000 { print("moved code \(total)") }
        }
        return values.reduce(total) { $0 ^ ($1 << 3) }
    }
#else
    let crashTestVersion = "1.0.0"
#endif

@inline(never) func crashBySegfault() -> Never {
    let pointer = UnsafeMutablePointer<Int>(bitPattern: opaque(0x10))!
    pointer.pointee = 42
    Swift.fatalError("unreachable: the write above faults")
}

@inline(never) func crashByBusError() -> Never {
    let path = NSTemporaryDirectory() + "crash-test-bus-\(getpid())"
    let fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
    unlink(path)
    guard fd >= 0, ftruncate(fd, 4096) == 0,
        let mapping = mmap(nil, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), mapping != MAP_FAILED
    else { Swift.fatalError("cannot map a file for the bus error") }
    _ = ftruncate(fd, 0)  // the page is now past the end of the file
    mapping.storeBytes(of: opaque(UInt8(1)), as: UInt8.self)
    Swift.fatalError("unreachable: the store above faults")
}

@inline(never) func crashByAbort() -> Never {
    abort()
}

@inline(never) func crashByFatalError() -> Never {
    Swift.fatalError("crash-test fatal error on purpose")
}

@inline(never) func crashByForceUnwrap() -> Never {
    let value: Int? = opaque(nil)
    print(value!)
    Swift.fatalError("unreachable")
}

@inline(never) func crashByIndexOutOfRange() -> Never {
    let values = opaque([1, 2, 3])
    print(values[opaque(7)])
    Swift.fatalError("unreachable")
}

@inline(never) func crashByOverflow() -> Never {
    var value = opaque(Int.max)
    value += opaque(1)
    print(value)
    Swift.fatalError("unreachable")
}

@inline(never) func crashByDivideByZero() -> Never {
    print(crash_test_divide(1, opaque(0)))
    Swift.fatalError("unreachable")
}

/// Recurses with a frame the optimizer can neither drop nor turn into a loop.
@inline(never) func recurseUntilOverflow(_ depth: Int) -> Int {
    var frame = (depth, depth, depth, depth, depth, depth, depth, depth)
    return withUnsafeMutablePointer(to: &frame) { pointer in
        opaque(pointer).pointee.0 &+ recurseUntilOverflow(depth &+ 1)
    }
}

@inline(never) func crashByStackOverflow() -> Never {
    print(recurseUntilOverflow(0))
    Swift.fatalError("unreachable")
}

/// Starts `body` on a named background thread and parks the main thread.
func onBackgroundThread(named name: String, _ body: @escaping @Sendable () -> Void) -> Never {
    let thread = Thread {
        crash_test_name_thread(name)
        body()
    }
    thread.start()
    while true { sleep(1) }
}

@inline(never) func crashByThreadStackOverflow() -> Never {
    onBackgroundThread(named: "deep-worker") { print(recurseUntilOverflow(0)) }
}

/// Writes CLOCK_MONOTONIC (ns) to `CRASH_TEST_FAULT_TIME_FD` just before crashing: the
/// benchmark measures fault to waitpid. With `CRASH_TEST_PROFILE_FD`, the crash handler also
/// writes its phases' times there (the benchmark's profile, scr_debug_profile_crash).
func markFaultTime() {
    if let fd = ProcessInfo.processInfo.environment["CRASH_TEST_PROFILE_FD"].flatMap({ Int32($0) }) {
        scr_debug_profile_crash(fd)
    }
    guard let fd = ProcessInfo.processInfo.environment["CRASH_TEST_FAULT_TIME_FD"].flatMap({ Int32($0) }) else {
        return
    }
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    var ns = UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    _ = write(fd, &ns, 8)
}

/// Set once `CrashReporter.start` has returned.
let reporterStarted = Atomic<Bool>(false)

/// `early-thread-stack-overflow`: a thread started before the crash reporter (as a SwiftNIO
/// event loop a service starts first) waits for it, then recurses until its stack overflows.
func startEarlyThread() {
    let thread = Thread {
        crash_test_name_thread("early-loop")
        while !reporterStarted.load(ordering: .sequentiallyConsistent) { usleep(1000) }
        print(recurseUntilOverflow(0))
    }
    thread.start()
}

/// The main thread's part of `early-thread-stack-overflow`: waits for the early thread's crash.
func waitForEarlyThread() -> Never {
    while true { sleep(1) }
}

@inline(never) func crashOnBackgroundThread() -> Never {
    onBackgroundThread(named: "worker") { crashBySegfault() }
}

/// The start line of `two-threads`: both threads fault once both have arrived.
let startLine = Atomic<Int>(0)

/// Two threads wait at a start line and fault at the same moment.
@inline(never) func crashOnTwoThreads() -> Never {
    for name in ["racer-1", "racer-2"] {
        let thread = Thread {
            crash_test_name_thread(name)
            startLine.add(1, ordering: .sequentiallyConsistent)
            while startLine.load(ordering: .sequentiallyConsistent) < 2 {}
            crashBySegfault()
        }
        thread.start()
    }
    while true { sleep(1) }
}

@inline(never) func crashInTaskBody() async -> Never {
    await Task.yield()
    crashBySegfault()
}

@inline(never) func crashInTask() -> Never {
    Task.detached { await crashInTaskBody() }
    while true { sleep(1) }
}
