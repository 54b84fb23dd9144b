import Foundation
import Synchronization

// Crashes inside Swift tasks, after awaits: the functions that awaited the crashing one are on
// no thread's stack, only in the async context chain, which the report must still show
// (docs/async-capture.md). Each level is its own non-inlined async function, so that the tests
// find each one's resume point by name in debug and release builds alike.

/// The name `async-crash` gives its task (CRASH_TEST_TASK_NAME, else one with an e-mail address
/// in it on purpose): the report must scrub it.
let asyncCrashTaskName = ProcessInfo.processInfo.environment["CRASH_TEST_TASK_NAME"] ?? "orders for alice@example.com"

@inline(never) func asyncLevel3(_ index: Int) async throws -> Int {
    try await Task.sleep(nanoseconds: 1_000_000)
    markFaultTime()
    let values = opaque([1, 2, 3])
    return values[index]  // out of range: traps after the await
}

@inline(never) func asyncLevel2(_ index: Int) async throws -> Int {
    let value = try await asyncLevel3(index)
    return value &+ opaque(2)
}

@inline(never) func asyncLevel1(_ index: Int) async throws -> Int {
    let value = try await asyncLevel2(index)
    return value &* opaque(3)
}

/// `async-crash`: a named task awaits asyncLevel1, which awaits asyncLevel2, which awaits
/// asyncLevel3, which sleeps, resumes and indexes out of range.
@inline(never) func crashAfterAwaits() -> Never {
    Task(name: asyncCrashTaskName) { print(try await asyncLevel1(opaque(7))) }
    while true { sleep(1) }
}

/// One level of `async-deep`: awaits itself `depth` times, then sleeps, resumes and faults.
@inline(never) func asyncDescend(_ depth: Int) async throws -> Int {
    if depth == 0 {
        try await Task.sleep(nanoseconds: 1_000_000)
        markFaultTime()
        crashBySegfault()
    }
    let value = try await asyncDescend(depth - 1)
    return value &+ opaque(1)
}

/// `async-deep`: a chain of `CRASH_TEST_ASYNC_DEPTH` awaits (default 100, more than a report
/// keeps) ending in a segfault.
@inline(never) func crashDeepInAwaits() -> Never {
    let depth = ProcessInfo.processInfo.environment["CRASH_TEST_ASYNC_DEPTH"].flatMap { Int($0) } ?? 100
    Task(name: "deep chain") { print(try await asyncDescend(depth)) }
    while true { sleep(1) }
}

/// Blocks its thread for good after an await: synchronous code called from an async function.
@inline(never) func asyncBlocker2() async -> Int {
    await Task.yield()
    while true { sleep(1) }
}

@inline(never) func asyncBlocker1() async -> Int {
    let value = await asyncBlocker2()
    return value &+ opaque(1)
}

/// `async-other-thread`: a task named `blocked for bob@example.org` runs on a thread of its own,
/// awaits asyncBlocker1, which awaits asyncBlocker2, which blocks that thread; then the main
/// thread segfaults. The other thread's async chain and task are in the report.
@inline(never) func crashBesideBlockedTask() -> Never {
    let executor = ThreadTaskExecutor()
    executor.start()
    let started = Atomic<Bool>(false)
    Task(name: "blocked for bob@example.org", executorPreference: executor) {
        started.store(true, ordering: .sequentiallyConsistent)
        print(await asyncBlocker1())
    }
    while !started.load(ordering: .sequentiallyConsistent) { usleep(1000) }
    usleep(50_000)  // until asyncBlocker2 has resumed and blocks
    crashBySegfault()
}
