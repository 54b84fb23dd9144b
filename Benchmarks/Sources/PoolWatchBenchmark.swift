import Foundation

/// What the reporter's watch of the pool and the main actor costs an idle service: CPU time of
/// `crash-test idle SECONDS` (the whole process, every thread, while nothing happens) with the
/// watch on and off, interleaved, and without the reporter, scaled to an hour.
enum PoolWatchBenchmark {
    static func run(binary: String, seconds: Int, runs: Int) throws -> [String] {
        let base = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory(), "SWIFT_BACKTRACE": "enable=no"]
        let pool = ["CRASH_TEST_IDLE_POOL": "1"]
        let off = ["CRASH_REPORTER_WATCH_EXECUTORS": "0"]
        let configurations: [(label: String, environment: [String: String])] = [
            ("no reporter", ["CRASH_REPORTER_DISABLED": "1"]),
            ("reporter, watch off", off),
            ("reporter, watch on (default)", [:]),
            ("pool used once, watch off", pool.merging(off) { $1 }),
            ("pool used once, watch on", pool),
        ]
        var samples = Array(repeating: [Double](), count: configurations.count)
        for _ in 0..<runs {
            for (index, configuration) in configurations.enumerated() {
                samples[index].append(
                    try idleCPU(
                        binary: binary, seconds: seconds, environment: base.merging(configuration.environment) { $1 }))
            }
        }
        let medians = samples.map { Stats(samples: $0).median }
        func row(_ label: String, _ median: Double) -> String {
            let perHour = median / Double(seconds) * 3600 / 1000
            let share = median / (Double(seconds) * 1e6) * 100
            return "| \(label) | \(format(median, 0)) | \(format(perHour, 1)) | \(format(share, 4)) |"
        }
        var lines = [
            "| idle \(seconds) s (\(runs) runs each, interleaved) | CPU, µs (median) | per idle hour, ms | % of a core |",
            "|---|---|---|---|",
        ]
        for (index, configuration) in configurations.enumerated() {
            lines.append(row(configuration.label, medians[index]))
        }
        // The first use of the pool starts Dispatch's own once-a-second check of its threads, which
        // a service that uses Swift concurrency pays with or without the watch.
        lines.append(row("the watch alone, in a program that never used the pool (on − off)", medians[2] - medians[1]))
        lines.append(row("the watch alone, in a program that uses the pool (on − off)", medians[4] - medians[3]))
        return lines
    }

    /// `crash-test idle SECONDS` in a fresh state directory: the CPU microseconds it printed.
    static func idleCPU(binary: String, seconds: Int, environment: [String: String]) throws -> Double {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-idle-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["idle", String(seconds)]
        process.environment = environment.merging(["CRASH_REPORTER_DIR": dir.path]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("idle_cpu_us=") }),
            let value = Double(line.dropFirst("idle_cpu_us=".count))
        else { throw POSIXError(.EIO) }
        return value
    }
}
