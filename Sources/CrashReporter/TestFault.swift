import CCrashReporter
import Glibc

/// The test hook `CRASH_REPORTER_TEST_FAULT`: makes the next report meet a fault on purpose, so
/// that the integration tests can show the crash path survives it (docs/signal-safety.md).
enum TestFault {
    /// `unwind`, `report`, `thread`, `record` (a fault at one of those places), `slow-claim` (one
    /// other thread slow to claim its capture slot), `gone` (one other thread's capture signal sent
    /// to an id no thread has, as for a thread that ended after the listing), `slow-end` (the crash
    /// handler waits 500 ms before it hands the signal on), or
    /// `eio-after:N` / `enospc-after:N` (the report file's writes fail after N bytes). Anything
    /// else arms nothing.
    static func arm(_ value: String?) {
        guard let value else { return }
        if let site = site(named: value) {
            scr_debug_inject_fault(site)
            return
        }
        let parts = value.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let bytes = UInt64(parts[1]) else { return }
        switch parts[0] {
        case "eio-after": scr_debug_inject_write_fault(EIO, bytes)
        case "enospc-after": scr_debug_inject_write_fault(ENOSPC, bytes)
        default: break
        }
    }

    /// The C core's fault site (CCrashReporter.h's `SCR_FAULT_IN_*`) that `name` stands for.
    static func site(named name: String) -> Int32? {
        switch name {
        case "unwind": Int32(SCR_FAULT_IN_UNWIND)
        case "report": Int32(SCR_FAULT_IN_REPORT)
        case "thread": Int32(SCR_FAULT_IN_THREAD)
        case "record": Int32(SCR_FAULT_IN_RECORD)
        case "slow-claim": Int32(SCR_FAULT_SLOW_CLAIM)
        case "gone": Int32(SCR_FAULT_THREAD_GONE)
        case "slow-end": Int32(SCR_FAULT_SLOW_END)
        default: nil
        }
    }
}
