import Glibc

/// The ways a request handler can crash, one route each (`GET /crash/<kind>`).
enum Crash: String, CaseIterable {
    /// A dictionary lookup force-unwrapped: SIGILL from the Swift runtime's trap.
    case forceUnwrap = "force-unwrap"
    /// `fatalError` with a message, which the report keeps.
    case fatalError = "fatal-error"
    /// A write through a pointer near null: SIGSEGV.
    case nullWrite = "null-write"
    /// Recursion without end on the event loop's thread: SIGSEGV on a guard page, reported from
    /// the alternate stack the reporter gave the thread.
    case recursion
    /// Not a crash: the handler blocks its event loop for good (a lock that never comes back),
    /// and the loop's heartbeat stops.
    case block

    func perform() {
        switch self {
        case .forceUnwrap:
            let sessions: [String: Int] = [:]
            print(sessions[opaque("missing")]!)
        case .fatalError:
            Swift.fatalError("the request handler gave up")
        case .nullWrite:
            UnsafeMutablePointer<Int>(bitPattern: opaque(0x10))!.pointee = 42
        case .recursion:
            print(descend(0))
        case .block:
            while true { sleep(60) }
        }
    }
}

/// Hides a value from the optimizer, so that each crash happens at run time as written.
@inline(never) @_optimize(none) func opaque<T>(_ value: T) -> T { value }

/// Never returns: each call keeps a frame on the stack until it overflows.
@inline(never) func descend(_ depth: Int) -> Int {
    var frame = (depth, depth, depth, depth)
    return withUnsafeMutablePointer(to: &frame) { opaque($0).pointee.0 &+ descend(depth &+ 1) }
}
