/// The reporter's own watch of Swift's executors: the cooperative pool (the global concurrent
/// executor) and the main actor, each with a heartbeat of its own that a tiny job on that executor
/// ticks at an interval. When every pool thread is blocked (the usual way an async service hangs)
/// or the main actor's thread never comes back, the job cannot run, the heartbeat stops, and the
/// monitor writes one `hang` report naming the executor, with every thread, as for any heartbeat
/// (one per stall). No code of the service has to tick anything.
///
/// The pool's heartbeat is registered at `start`. The main actor's is registered by its job's
/// first run on the main actor: a program whose main thread never drains the main queue (a
/// synchronous `main` that blocks, or never calls `dispatchMain()`) never arms it, so it cannot
/// stall. Each job sleeps between ticks (`Task.sleep`): it costs one timer and one job per
/// interval.
enum ExecutorWatch {
    /// The heartbeat names: what a hang report's `heartbeat.name` says.
    static let poolName = "cooperative pool"
    static let mainActorName = "main actor"

    /// The interval between ticks: a quarter of the hang timeout (so that a tick a little late
    /// is never a stall), at most 2.5 s, at least 25 ms.
    static func interval(hangTimeoutMs: Int) -> Duration {
        .milliseconds(min(2500, max(25, hangTimeoutMs / 4)))
    }

    /// Starts both jobs; `start` calls it once the handlers are in place.
    static func start(hangTimeoutMs: Int) {
        let interval = interval(hangTimeoutMs: hangTimeoutMs)
        if let pool = CrashReporter.heartbeat(poolName) {
            // No priority, as most of a service's tasks: Dispatch runs each priority on its own threads.
            Task.detached { await tick(pool, every: interval) }
        }
        Task { @MainActor in
            guard let mainActor = CrashReporter.heartbeat(mainActorName) else { return }
            await tick(mainActor, every: interval)
        }
    }

    /// Ticks `beat` on the caller's executor (isolated: a main-actor caller resumes on the main
    /// actor), then sleeps `interval`, for good.
    private static func tick(
        _ beat: Heartbeat, every interval: Duration, isolation: isolated (any Actor)? = #isolation
    ) async {
        while true {
            beat.tick()
            try? await Task.sleep(for: interval, tolerance: interval / 10)
        }
    }
}
