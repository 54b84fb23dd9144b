/// The crashes of the routes whose closures run on one of SwiftNIO's event loops rather than as
/// tasks of the concurrency pool: Vapor calls a synchronous route's closure, and a future's
/// callbacks, on the event loop of the request's connection. `@inline(never)` keeps each a frame
/// of its own in -O builds.
enum EventLoopCrash {
    /// `GET /crash/sync`: force-unwraps a value the table does not hold: "Unexpectedly found
    /// nil" (SIGILL, SIGTRAP on arm64), with the route's closure, Vapor's responder chain and
    /// `SelectableEventLoop.run` below it on the crashing thread's stack.
    @inline(never)
    static func unwrapMissing(_ table: [String: Int], key: String) -> Int {
        table[key]!
    }

    /// `GET /crash/future`: the average of no values: "Division by zero" (SIGILL, SIGTRAP on
    /// arm64), in a `map` callback that runs when a task scheduled on the event loop completes
    /// the chain's first future, after the route's closure returned.
    @inline(never)
    static func average(_ values: [Int]) -> Int {
        values.reduce(0, &+) / values.count
    }
}
