import Foundation

/// The async walk's cost at a crash: fault to waitpid for a task that crashes three awaits deep
/// and one that crashes 62 awaits deep (64 async frames kept, the walk's bound), against a
/// synchronous segfault, with the reporter and without, interleaved run by run (release
/// `crash-test`).
enum AsyncBenchmark {
    static func run(binary: String, runs: Int) throws -> [String] {
        let base = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory(), "SWIFT_BACKTRACE": "enable=no"]
        let off = base.merging(["CRASH_REPORTER_DISABLED": "1"]) { $1 }
        let deep = ["CRASH_TEST_ASYNC_DEPTH": "62"]
        let cases: [(String, String, [String: String])] = [
            ("segfault, no async code", "segfault", base),
            ("a task 3 awaits deep (6 async frames), no reporter", "async-crash", off),
            ("a task 3 awaits deep (6 async frames)", "async-crash", base),
            ("a task 62 awaits deep (64 async frames), no reporter", "async-deep", off.merging(deep) { $1 }),
            ("a task 62 awaits deep (64 async frames)", "async-deep", base.merging(deep) { $1 }),
        ]
        var samples = Array(repeating: [Double](), count: cases.count)
        for _ in 0..<runs {
            for (i, item) in cases.enumerated() {
                samples[i].append(
                    try CrashBenchmark.crashOnce(binary: binary, environment: item.2, kind: item.1).microseconds)
            }
        }
        var lines = [
            "| fault to waitpid (\(runs) runs each, interleaved), µs | median | p90 | min |", "|---|---|---|---|",
        ]
        for (i, item) in cases.enumerated() {
            let s = Stats(samples: samples[i])
            lines.append("| \(item.0) | \(format(s.median, 0)) | \(format(s.p90, 0)) | \(format(s.min, 0)) |")
        }
        let shallow = Stats(samples: samples[2]).median - Stats(samples: samples[1]).median
        let deepCost = Stats(samples: samples[4]).median - Stats(samples: samples[3]).median
        lines.append("")
        lines.append(
            "Reporter overhead (median − the same crash without it): \(format(shallow, 0)) µs at 6 async frames, "
                + "\(format(deepCost, 0)) µs at 64.")
        return lines
    }
}
