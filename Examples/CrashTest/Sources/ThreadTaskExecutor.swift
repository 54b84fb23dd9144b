import CCrashTestSupport
import Foundation

/// A task executor with one thread of its own (`task-executor`), for `async-other-thread`: a task
/// that runs there is on a thread the capture signal reaches (the cooperative pool's threads
/// block every signal), so its async chain is in the report of another thread's crash.
final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Starts the thread that runs the jobs, one after the other, for good.
    func start() {
        let thread = Thread { [self] in
            crash_test_name_thread("task-executor")
            while true {
                condition.lock()
                while jobs.isEmpty { condition.wait() }
                let job = jobs.removeFirst()
                condition.unlock()
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
        thread.start()
    }
}
