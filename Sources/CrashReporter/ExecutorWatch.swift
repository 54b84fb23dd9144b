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
/// most every 2.5 s), one per executor at a time: a job not yet run is not joined by another, so a
/// long stall piles nothing up. The pool's heartbeat is registered at `start`; the main actor's by
/// its job's first run on the main actor, so that a program whose main thread never drains the
/// main queue (a synchronous `main` that blocks, or never calls `dispatchMain()`) never arms it.
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

    /// Registers the pool's heartbeat and hands the monitor the probe; `start` calls it once the
    /// handlers are in place.
    static func start() {
        guard let pool = CrashReporter.heartbeat(poolName) else { return }
        poolIndex.store(pool.index, ordering: .releasing)
        scr_set_monitor_probe { ExecutorWatch.probe() }
        probe()
    }

    /// On the monitor thread: a job for each executor that has none waiting.
    private static func probe() {
        if !poolJobWaiting.exchange(true, ordering: .acquiringAndReleasing) {
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
