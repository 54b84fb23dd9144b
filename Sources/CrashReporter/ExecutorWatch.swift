import CCrashReporter
import Synchronization

/// The reporter's own watch of Swift's executors: the cooperative pool (the global concurrent
/// executor) and the main actor, each with a heartbeat of its own that a tiny job on that executor
/// ticks. When every pool thread is blocked (the usual way an async service hangs) or the main
/// actor's thread never comes back, the job cannot run, the heartbeat stops, and the monitor
/// writes one `hang` report naming the executor, with every thread, as for any heartbeat (one per
/// stall). No code of the service has to tick anything.
///
/// The monitor thread enqueues the jobs each time it wakes (every quarter of the hang timeout, at
/// most every 2.5 s, while a heartbeat exists), one per executor at a time: a job not yet run is
/// not joined by another, so a long stall piles nothing up. The pool is watched from its first
/// use on (CShims/pool_hook.c tells when its first job is enqueued), so that a program that never
/// uses the pool gets no pool thread from the watch: the monitor registers its heartbeat then, so
/// that a pool whose threads all block at once is still seen. The main actor's heartbeat is
/// registered by its job's first run on the main actor, so that a program whose main thread never
/// drains the main queue (a synchronous `main` that blocks, or never calls `dispatchMain()`)
/// never arms it.
enum ExecutorWatch {
    /// The heartbeat names: what a hang report's `heartbeat.name` says.
    static let poolName = "cooperative pool"
    static let mainActorName = "main actor"

    /// The heartbeats' indices, -1 before they are registered.
    private static let poolIndex = Atomic<Int32>(-1)
    private static let mainActorIndex = Atomic<Int32>(-1)
    /// Whether a job is enqueued and has not run yet.
    private static let poolJobWaiting = Atomic<Bool>(false)
    private static let mainActorJobWaiting = Atomic<Bool>(false)

    /// Hooks the pool's first use: `start` calls it on its own thread once the handlers are in
    /// place (two stores, nothing of the concurrency runtime), so that no job enqueued after
    /// `start` returns is missed.
    static func hookPool() {
        scr_pool_hook_install()
    }

    /// Hands the monitor the probe and enqueues the first jobs: on the settle thread, as they are
    /// the concurrency runtime's first use.
    static func start() {
        scr_set_monitor_probe { ExecutorWatch.probe() }
        probe()
    }

    /// On the monitor thread (and once from `start()`): a job for each executor that has none waiting,
    /// the pool's only once it is in use.
    private static func probe() {
        if scr_pool_used() != 0, registerPool(),
            !poolJobWaiting.exchange(true, ordering: .acquiringAndReleasing)
        {
            // No priority, as most of a service's tasks: Dispatch runs each priority on threads of its own.
            Task.detached {
                scr_heartbeat_tick(poolIndex.load(ordering: .acquiring))
                poolJobWaiting.store(false, ordering: .releasing)
            }
        }
        if !mainActorJobWaiting.exchange(true, ordering: .acquiringAndReleasing) {
            Task { @MainActor in tickMainActor() }
        }
    }

    /// Registers the pool's heartbeat the first time; false when all 64 are taken (no watch).
    private static func registerPool() -> Bool {
        if poolIndex.load(ordering: .acquiring) >= 0 { return true }
        guard let beat = CrashReporter.heartbeat(poolName) else { return false }
        poolIndex.store(beat.index, ordering: .releasing)
        return true
    }

    /// The main actor's job: registers its heartbeat the first time (a main actor that never runs
    /// is never watched), then ticks it.
    @MainActor private static func tickMainActor() {
        var index = mainActorIndex.load(ordering: .acquiring)
        if index < 0 {
            guard let beat = CrashReporter.heartbeat(mainActorName) else { return }  // all 64 taken: no watch
            index = beat.index
            mainActorIndex.store(index, ordering: .releasing)
        }
        scr_heartbeat_tick(index)
        mainActorJobWaiting.store(false, ordering: .releasing)
    }
}
