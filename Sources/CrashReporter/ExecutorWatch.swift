import CCrashReporter
import Glibc
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
///
/// The first job on the main actor makes libdispatch create the main queue's wake-up descriptor,
/// and libdispatch traps (SIGILL) when it cannot: a service whose descriptor table is full at that
/// moment would die of the watch. So the first main-actor job waits for a probe that finds a free
/// descriptor (docs/decisions/0145).
enum ExecutorWatch {
    /// The heartbeat names: what a hang report's `heartbeat.name` says.
    static let poolName = "cooperative pool"
    static let mainActorName = "main actor"

    /// The pool's heartbeat, registered by the first probe that finds the pool in use (two
    /// threads probe); the main actor's, -1 before its job first runs (on the main actor only).
    private static let poolHeartbeat = OnceRegisteredHeartbeat()
    private static let mainActorIndex = Atomic<Int32>(-1)
    /// Whether a job is enqueued and has not run yet.
    private static let poolJobWaiting = Atomic<Bool>(false)
    private static let mainActorJobWaiting = Atomic<Bool>(false)
    /// Whether a job was ever enqueued on the main actor (libdispatch's main queue has its descriptor).
    private static let mainActorEverEnqueued = Atomic<Bool>(false)

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
        if scr_pool_used() != 0, let index = poolHeartbeat.index(registeringWith: registerPool),
            !poolJobWaiting.exchange(true, ordering: .acquiringAndReleasing)
        {
            // No priority, as most of a service's tasks: Dispatch runs each priority on threads of its own.
            Task.detached {
                scr_heartbeat_tick(index)
                poolJobWaiting.store(false, ordering: .releasing)
            }
        }
        if mainQueueCanWake(), !mainActorJobWaiting.exchange(true, ordering: .acquiringAndReleasing) {
            mainActorEverEnqueued.store(true, ordering: .releasing)
            Task { @MainActor in tickMainActor() }
        }
    }

    /// Whether a job may be enqueued on the main actor: always once one was; before that, only
    /// when a descriptor is free for libdispatch to make the main queue's (a full table is tried
    /// again at the monitor's next wake). Another thread may still take the last descriptor in
    /// between: this narrows the window to a few instructions, it cannot close it.
    private static func mainQueueCanWake() -> Bool {
        if mainActorEverEnqueued.load(ordering: .acquiring) { return true }
        let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }

    /// Registers the pool's heartbeat; nil when all 64 are taken (no watch until one is free).
    private static func registerPool() -> Int32? {
        CrashReporter.heartbeat(poolName)?.index
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
