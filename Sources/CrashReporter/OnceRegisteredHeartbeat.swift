import Synchronization

/// The index of a heartbeat that exactly one thread registers, however many ask for it at once.
///
/// The executor watch's probe runs on the monitor thread and, once, on `start()`'s settle thread:
/// both can find the pool in use before either has registered its heartbeat. A load, then a
/// register, then a store would let both register, and the heartbeat nobody ticks would report a
/// hang of a healthy pool. Here the first to move the index from `none` to `claimed` registers;
/// the others get nil until the index is published.
struct OnceRegisteredHeartbeat: ~Copyable, Sendable {
    private static let none: Int32 = -1
    private static let claimed: Int32 = -2

    private let value = Atomic<Int32>(Self.none)

    /// The published index, or nil before it is.
    var index: Int32? {
        let index = value.load(ordering: .acquiring)
        return index >= 0 ? index : nil
    }

    /// The index, registered first by `register` when no thread has claimed it yet. Nil while
    /// another thread registers it, or when `register` returns nil (all heartbeats taken): the
    /// claim is then given back, and a later call tries again.
    func index(registeringWith register: () -> Int32?) -> Int32? {
        if let index { return index }
        guard
            value.compareExchange(expected: Self.none, desired: Self.claimed, ordering: .acquiringAndReleasing)
                .exchanged
        else { return nil }
        guard let index = register() else {
            value.store(Self.none, ordering: .releasing)
            return nil
        }
        value.store(index, ordering: .releasing)
        return index
    }
}
