/// The handler chain of `GET /crash/await`: the route's handler awaits `level1`, which awaits
/// `level2`, which awaits `level3`; `level3` sleeps, resumes and reads past the end of an array.
/// After the sleep, `level3` resumes on whichever pool thread is free, called by the
/// concurrency runtime: its callers (`level2`, `level1`, the route's closure, Vapor's
/// `AsyncBasicResponder` and the task `EventLoopPromise.completeWithTask` started) are on no
/// thread's stack, only in the chain of async contexts.
///
/// Each level does some work after its `await`, so that each keeps a context of its own and a
/// resume function to be named by; `@inline(never)` keeps each a function of its own in -O
/// builds too.
enum AwaitChain {
    @inline(never)
    static func level1(_ items: [Int]) async throws -> Int {
        let found = try await level2(items)
        return found &+ items.count
    }

    @inline(never)
    static func level2(_ items: [Int]) async throws -> Int {
        let found = try await level3(items)
        return found &* 2
    }

    /// Traps with "Index out of range" (SIGILL or SIGTRAP) after its sleep.
    @inline(never)
    static func level3(_ items: [Int]) async throws -> Int {
        try await Task.sleep(for: .milliseconds(20))
        return items[items.count]
    }
}
