import CCrashReporter
import Foundation

/// Where a crash's time goes: the handler's phase marks (profile.c, scr_crash_profile), written
/// to a descriptor by crash-test's benchmark hook, turned into the median of each phase.
enum CrashProfile {
    struct Sample {
        var marks: [UInt64]
        var deflate: UInt64
        var write: UInt64
        var waiting: UInt64
        var faulted: UInt64
        var reaped: UInt64

        /// One scr_crash_profile from `fd`; nil when the handler wrote none (or not all of it).
        static func read(from fd: Int32, faulted: UInt64, reaped: UInt64) -> Sample? {
            var table = scr_crash_profile()
            let size = MemoryLayout<scr_crash_profile>.size
            let got = withUnsafeMutableBytes(of: &table) { Foundation.read(fd, $0.baseAddress, size) }
            guard got == size else { return nil }
            let marks = withUnsafeBytes(of: table.marks_ns) { Array($0.bindMemory(to: UInt64.self)) }
            guard marks.allSatisfy({ $0 >= faulted }) else { return nil }
            return Sample(
                marks: marks, deflate: table.deflate_ns, write: table.write_ns, waiting: table.waiting_ns,
                faulted: faulted, reaped: reaped)
        }

        func mark(_ phase: Int) -> Double { Double(marks[phase]) }
    }

    /// The phases, each a duration in µs from one sample.
    static let phases: [(String, @Sendable (Sample) -> Double)] = [
        ("signal delivery (fault to the handler)", { $0.mark(SCR_PROFILE_ENTERED) - Double($0.faulted) }),
        ("claim (compare-and-swap, watchdog armed)", { $0.mark(SCR_PROFILE_CLAIMED) - $0.mark(SCR_PROFILE_ENTERED) }),
        (
            "other threads: /proc/self/task listed, signalled",
            { $0.mark(SCR_PROFILE_REQUESTED) - $0.mark(SCR_PROFILE_CLAIMED) }
        ),
        (
            "crashing thread: registers, name, unwinding",
            { $0.mark(SCR_PROFILE_UNWOUND) - $0.mark(SCR_PROFILE_REQUESTED) }
        ),
        ("report file opened, deflate set up", { $0.mark(SCR_PROFILE_OPENED) - $0.mark(SCR_PROFILE_UNWOUND) }),
        ("images refreshed, header and crash written", { $0.mark(SCR_PROFILE_HEADER) - $0.mark(SCR_PROFILE_OPENED) }),
        (
            "other threads written, each once it has answered",
            { $0.mark(SCR_PROFILE_CAPTURED) - $0.mark(SCR_PROFILE_HEADER) }
        ),
        ("images, breadcrumbs written", { $0.mark(SCR_PROFILE_BODY) - $0.mark(SCR_PROFILE_CAPTURED) }),
        ("deflate's last block", { $0.mark(SCR_PROFILE_FINISHED) - $0.mark(SCR_PROFILE_BODY) }),
        ("named .crash (linkat, or rename), closed", { $0.mark(SCR_PROFILE_RENAMED) - $0.mark(SCR_PROFILE_FINISHED) }),
        ("run record marked", { $0.mark(SCR_PROFILE_RECORDED) - $0.mark(SCR_PROFILE_RENAMED) }),
        ("chaining: watchdog off, actions restored", { $0.mark(SCR_PROFILE_CHAINING) - $0.mark(SCR_PROFILE_RECORDED) }),
        (
            "teardown: the fault again, default action, exit, waitpid",
            { Double($0.reaped) - $0.mark(SCR_PROFILE_CHAINING) }
        ),
    ]

    /// Totals across the writing phases (opened to finished).
    static let totals: [(String, @Sendable (Sample) -> Double)] = [
        ("of which inside deflate", { Double($0.deflate) }),
        ("of which inside write(2)", { Double($0.write) }),
        ("of which asleep for the other threads' answers", { Double($0.waiting) }),
        (
            "of which JSON encoding and the rest (writing phases − deflate − write − asleep)",
            {
                $0.mark(SCR_PROFILE_FINISHED) - $0.mark(SCR_PROFILE_UNWOUND) - Double($0.waiting)
                    - Double($0.deflate) - Double($0.write)
            }
        ),
        ("whole: fault to waitpid", { Double($0.reaped - $0.faulted) }),
    ]

    static func table(_ samples: [Sample]) -> [String] {
        guard !samples.isEmpty else { return ["(no crash profile was written)"] }
        var lines = [
            "| where a crash's time goes (\(samples.count) profiled runs), µs | median | p90 |", "|---|---|---|",
        ]
        for (label, duration) in phases + totals {
            let stats = Stats(samples: samples.map { duration($0) / 1000 })
            lines.append("| \(label) | \(format(stats.median, 0)) | \(format(stats.p90, 0)) |")
        }
        return lines
    }
}
