import CCrashReporter
import CrashReporter
import Foundation

/// What capturing every thread costs: fault to waitpid with 2, 16 and 64 other threads alive
/// (with and without the reporter, interleaved), and, in this process, a snapshot's pause with
/// 16 threads (and 16 Dispatch workers besides), its size, a heartbeat's tick and the memory
/// reserved.
enum ThreadsBenchmark {
    /// Three rounds of `runs` interleaved crashes for each thread count: a median of 20 moves by a
    /// few hundred µs from one round to the next on this machine with 64 threads, so the table
    /// gives the pooled medians and each round's overhead beside them.
    static func crashes(binary: String, runs: Int, rounds: Int = 3) throws -> [String] {
        // As CrashBenchmark: the crash comes after start()'s background settle.
        let base = [
            "PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory(), "SWIFT_BACKTRACE": "enable=no",
            "CRASH_TEST_LAST_RUN": "1",
        ]
        let off = base.merging(["CRASH_REPORTER_DISABLED": "1"]) { $1 }
        var lines = [
            "| fault to waitpid (\(rounds) rounds of \(runs) interleaved runs each), µs | no reporter | reporter "
                + "| overhead | round overheads |",
            "|---|---|---|---|---|",
        ]
        for count in [0, 2, 16, 64] {
            let command = ["threads", String(count)]
            let environment = ["CRASH_TEST_PARK_ALL_SLEEPING": "1"]
            var plain: [Double] = []
            var reporter: [Double] = []
            var overheads: [Double] = []
            for _ in 0..<rounds {
                var roundPlain: [Double] = []
                var roundReporter: [Double] = []
                for _ in 0..<runs {
                    roundPlain.append(
                        try CrashBenchmark.crashOnce(
                            binary: binary, environment: off.merging(environment) { $1 }, arguments: command
                        ).microseconds)
                    roundReporter.append(
                        try CrashBenchmark.crashOnce(
                            binary: binary, environment: base.merging(environment) { $1 }, arguments: command
                        ).microseconds)
                }
                overheads.append(Stats(samples: roundReporter).median - Stats(samples: roundPlain).median)
                plain += roundPlain
                reporter += roundReporter
            }
            let a = Stats(samples: plain).median
            let b = Stats(samples: reporter).median
            let label = count == 0 ? "main thread only (+ the monitor)" : "\(count) other threads sleeping"
            let byRound = overheads.map { format($0, 0) }.joined(separator: ", ")
            lines.append("| \(label) | \(format(a, 0)) | \(format(b, 0)) | \(format(b - a, 0)) | \(byRound) |")
        }
        return lines
    }

    /// Runs in this process, last: it starts the reporter here.
    static func snapshots(runs: Int) throws -> [String] {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("bench-snapshot-\(getpid())")
        defer { try? FileManager.default.removeItem(at: state) }
        let beforeStart = ReservedMemory.anonymousMappings()
        try CrashReporter.start(
            Options(appName: "bench", stateDirectory: state.path, deliverAtStart: false, snapshotSignal: .off),
            environment: ["HOME": NSTemporaryDirectory()])
        let atStart = ReservedMemory.anonymousMappings()
        for _ in 0..<100 { Breadcrumbs.record("step", category: "bench", data: [("index", "1")]) }
        let afterBreadcrumbs = ReservedMemory.anonymousMappings()
        let sleepers = (0..<16).map { index in
            let thread = Thread { while true { Thread.sleep(forTimeInterval: 60) } }
            thread.name = "worker-\(index)"
            return thread
        }
        sleepers.forEach { $0.start() }
        Thread.sleep(forTimeInterval: 0.1)
        let (pause, whole, size) = try measureSnapshots(runs: runs, state: state)
        // 16 Dispatch workers besides, each blocked in a job: Dispatch blocks every signal on them,
        // and they answer all the same (the reporter keeps its capture signal open).
        for index in 0..<16 {
            DispatchQueue(label: "blocked-\(index)").async { while true { Thread.sleep(forTimeInterval: 60) } }
        }
        Thread.sleep(forTimeInterval: 0.2)
        let (poolPause, poolWhole, _) = try measureSnapshots(runs: runs, state: state)
        let afterSnapshots = ReservedMemory.anonymousMappings()
        let memory = ReservedMemory.table(
            before: beforeStart,
            stages: [
                ("at start", atStart), ("after 100 breadcrumbs", afterBreadcrumbs),
                ("after \(2 * runs) snapshots", afterSnapshots),
            ])
        let beat = try CrashReporter.heartbeat("bench").unwrap()
        let ticks = 50_000_000
        let clock = ContinuousClock()
        let began = clock.now
        for _ in 0..<ticks { beat.tick() }
        let perTick = nanoseconds(clock.now - began) / Double(ticks)
        return [
            "| snapshot with 16 other threads (\(runs) runs) | median | p90 | max |", "|---|---|---|---|",
            "| threads paused (first capture signal to last thread back), µs | \(format(pause.median, 0)) | "
                + "\(format(pause.p90, 0)) | \(format(pause.sorted.last ?? .nan, 0)) |",
            "| snapshot(reason:) returns, µs | \(format(whole.median, 0)) | \(format(whole.p90, 0)) | "
                + "\(format(whole.sorted.last ?? .nan, 0)) |",
            "| with 16 Dispatch workers answering besides: threads paused, µs | \(format(poolPause.median, 0)) | "
                + "\(format(poolPause.p90, 0)) | \(format(poolPause.sorted.last ?? .nan, 0)) |",
            "| with 16 Dispatch workers answering besides: snapshot(reason:) returns, µs | "
                + "\(format(poolWhole.median, 0)) | \(format(poolWhole.p90, 0)) | \(format(poolWhole.sorted.last ?? .nan, 0)) |",
            "",
            "Snapshot size with 16 other threads and 100 breadcrumbs (gzip): \(size) bytes (largest).",
            "heartbeat.tick(): \(format(perTick, 2)) ns (\(ticks) ticks).",
            "Memory reserved at start() with the defaults: \(CrashReporter.reservedBytes) bytes, of which "
                + "\(scr_reserved_thread_bytes()) for the other threads' slots (256 threads × 64 frames).",
            "",
        ] + memory
    }
}

extension ThreadsBenchmark {
    /// `runs` snapshots: the threads' pause, the call's whole time (µs) and the largest file.
    fileprivate static func measureSnapshots(runs: Int, state: URL) throws -> (Stats, Stats, Int) {
        var pauses: [Double] = []
        var wholes: [Double] = []
        var size = 0
        for _ in 0..<runs {
            let began = ContinuousClock.now
            guard let id = CrashReporter.snapshot(reason: "benchmark") else { throw POSIXError(.EIO) }
            wholes.append(nanoseconds(ContinuousClock.now - began) / 1000)
            pauses.append(Double(scr_last_capture_pause_ns()) / 1000)
            let file = state.appendingPathComponent("pending/\(id).crash").path
            size = max(size, (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0)
            if ProcessInfo.processInfo.environment["BENCH_KEEP_SNAPSHOT"] != nil {
                try? FileManager.default.copyItem(atPath: file, toPath: "/tmp/bench-snapshot.crash")
            }
            try FileManager.default.removeItem(atPath: file)
        }
        return (Stats(samples: pauses), Stats(samples: wholes), size)
    }
}

extension Optional {
    fileprivate func unwrap() throws -> Wrapped {
        guard let value = self else { throw POSIXError(.ENOENT) }
        return value
    }
}
