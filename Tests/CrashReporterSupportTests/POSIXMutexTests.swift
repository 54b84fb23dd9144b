import Glibc
import Testing

@testable import CrashReporterSupport

/// The mutex's rules broken on purpose, each in a child process of its own (an exit test): the
/// error-checking mutex answers with an error, and the check stops the child, naming the call.
@Suite("An error-checking mutex")
struct POSIXMutexTests {
    @Test("an unlock by a thread that does not hold the lock stops the process")
    func unlockByAnotherThread() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let mutex = POSIXMutex()
            let held = Latch()
            // Another thread takes the lock and keeps it; this one then unlocks it.
            try! DetachedThread.start(name: "holder") {
                mutex.lock()
                held.open()
                sleep(60)
            }
            guard held.wait(timeout: 60) else { exit(2) }
            mutex.unlock()
            exit(0)  // not reached: the unlock stops the process
        }
        let log = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(log.contains("pthread_mutex_unlock failed: \(Errno.text(EPERM)) (\(EPERM))"), "\(log)")
    }

    @Test("locking a lock this thread holds stops the process instead of hanging it")
    func relockOnOneThread() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let mutex = POSIXMutex()
            mutex.lock()
            mutex.lock()
            exit(0)  // not reached
        }
        let log = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(log.contains("pthread_mutex_lock failed: \(Errno.text(EDEADLK)) (\(EDEADLK))"), "\(log)")
    }

    @Test("a lock and an unlock by the same thread pass the checks")
    func rightUse() {
        let mutex = POSIXMutex()
        for _ in 0..<3 {
            mutex.lock()
            mutex.unlock()
        }
    }
}
