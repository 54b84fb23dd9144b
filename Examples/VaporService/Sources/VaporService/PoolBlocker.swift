import Glibc

/// The body of `GET /block?seconds=N`: the most common way an async service hangs, a
/// synchronous blocking call on a thread of the concurrency pool. The route's closure awaits
/// `holdPool`, which suspends once (so that the blocking part runs as a resume function, with the
/// closure and Vapor's responder in its async chain, as it would after any real `await`) and
/// then sleeps the thread for `seconds`. While it sleeps the pool has one thread less; with as
/// many such requests as the pool has threads, no task of the service runs at all.
enum PoolBlocker {
    /// The longest block a request may ask for.
    static let maximumSeconds = 600

    @inline(never)
    static func holdPool(seconds: Int) async -> Int {
        await Task.yield()
        return blockThread(seconds: min(max(seconds, 0), maximumSeconds))
    }

    /// Blocks the calling thread; returns the seconds it blocked for.
    @inline(never)
    static func blockThread(seconds: Int) -> Int {
        var remaining = UInt32(seconds)
        while remaining > 0 { remaining = sleep(remaining) }
        return seconds
    }
}
