import CCrashReporter
import Foundation

/// What the run record (docs/runs.md) adds to `start()` and to a clean exit, with it on and off
/// (`CRASH_REPORTER_RUN_RECORDS=0`) interleaved run by run, in fresh `crash-test run` processes
/// without a transport. Each configuration keeps its state directory from run to run, as a
/// service does: with records on, every launch settles the previous (clean) run and records
/// its own. A clean exit is timed from just before `exit(0)` to the parent's waitpid.
enum RunRecordBenchmark {
    static func run(binary: String, runs: Int) throws -> [String] {
        let configurations: [(name: String, environment: [String: String])] = [
            ("run records off", ["CRASH_REPORTER_RUN_RECORDS": "0"]),
            ("run records on", [:]),
        ]
        var starts = configurations.map { _ in [Double]() }
        var cpus = configurations.map { _ in [Double]() }
        var exits = configurations.map { _ in [Double]() }
        let dirs = configurations.map { _ in
            FileManager.default.temporaryDirectory.appendingPathComponent("bench-runs-\(UUID().uuidString)")
        }
        defer { dirs.forEach { try? FileManager.default.removeItem(at: $0) } }
        for _ in 0..<runs {
            for (index, configuration) in configurations.enumerated() {
                var environment = configuration.environment
                environment["CRASH_REPORTER_DIR"] = dirs[index].path
                let start = try startMicroseconds(binary: binary, environment: environment)
                starts[index].append(start.wall)
                cpus[index].append(start.cpu)
                let exit = try CrashBenchmark.crashOnce(
                    binary: binary,
                    environment: configuration.environment.merging(
                        ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory(), "SWIFT_BACKTRACE": "enable=no"]
                    ) { $1 },
                    arguments: ["run"])
                exits[index].append(exit.microseconds)
            }
        }
        var lines = [
            "| \(runs) fresh processes each, µs | start() CPU median | start() CPU p90 | start() wall median | "
                + "exit to waitpid median | exit p90 |",
            "|---|---|---|---|---|---|",
        ]
        for (index, configuration) in configurations.enumerated() {
            let start = Stats(samples: starts[index])
            let cpu = Stats(samples: cpus[index])
            let exit = Stats(samples: exits[index])
            lines.append(
                "| \(configuration.name) | \(format(cpu.median, 0)) | \(format(cpu.p90, 0)) | \(format(start.median, 0)) | "
                    + "\(format(exit.median, 0)) | \(format(exit.p90, 0)) |")
        }
        let added = Stats(samples: cpus[1]).median - Stats(samples: cpus[0]).median
        let wallAdded = Stats(samples: starts[1]).median - Stats(samples: starts[0]).median
        let exitAdded = Stats(samples: exits[1]).median - Stats(samples: exits[0]).median
        lines.append("")
        lines.append(
            "The run record adds \(format(added, 0)) µs of CPU time to start() (target ≤ 200 µs; \(format(wallAdded, 0)) µs "
                + "of wall-clock time, which a loaded machine makes noisy) and \(format(exitAdded, 0)) µs to a clean exit "
                + "(medians).")
        if let mark = markNanoseconds() {
            lines.append("")
            lines.append(
                "The end mark itself (`scr_run_record_mark_exited`, what the atexit handler runs: a `getpid` and "
                    + "one 45-byte `pwrite`): \(format(mark / 1000, 2)) µs a call, in this process.")
        }
        return lines
    }

    /// The clean-exit mark, timed over many calls on a record armed in this process (the exit
    /// times above are whole processes, which the machine's load makes noisy).
    private static func markNanoseconds() -> Double? {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bench-mark-\(getpid()).run").path
        defer { unlink(path) }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0, scr_run_record_arm(fd) == 0 else { return nil }
        let calls = 20_000
        let clock = ContinuousClock()
        let began = clock.now
        for _ in 0..<calls { scr_run_record_mark_exited() }
        return nanoseconds(clock.now - began) / Double(calls)
    }

    /// One `crash-test run` with `CRASH_TEST_TIMING=1`: how long its start() took, in µs of wall
    /// clock and of the calling thread's CPU time.
    private static func startMicroseconds(
        binary: String, environment: [String: String]
    ) throws -> (wall: Double, cpu: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["run"]
        process.environment = environment.merging(
            ["CRASH_TEST_TIMING": "1", "SWIFT_BACKTRACE": "enable=no", "PATH": "/usr/bin:/bin"]
        ) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var values: [Substring: Double] = [:]
        for field in output.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let parts = field.split(separator: "=")
            if parts.count == 2, let value = Double(parts[1]) { values[parts[0]] = value / 1000 }
        }
        guard let wall = values["start_ns"], let cpu = values["start_cpu_ns"] else { throw POSIXError(.EIO) }
        return (wall, cpu)
    }
}
