import Foundation

/// `start()` time and reserved memory, measured in fresh `crash-test run` processes, with an
/// empty state directory, with the record and report of a previous run that crashed (to settle),
/// and with 100 pending reports to deliver (to a closed port, so that the background worker has
/// work; start() must not wait for it); beside them the peer's sentry_init.
enum StartBenchmark {
    static func run(binary: String, runs: Int, report: URL) throws -> [String] {
        let empty = try measure(binary: binary, runs: runs, pending: 0, report: report)
        let settle = try measure(binary: binary, runs: runs, pending: 0, report: report, previousCrash: true)
        let loaded = try measure(binary: binary, runs: runs, pending: 100, report: report)
        let row = { (label: String, times: Stats, cpu: Stats) in
            "| \(label) | \(format(times.median, 0)) | \(format(times.p90, 0)) | \(format(times.min, 0)) | "
                + "\(format(cpu.median, 0)) |"
        }
        var lines = [
            "| start() (\(runs) fresh processes each), µs | median | p90 | min | CPU time, median |",
            "|---|---|---|---|---|",
            row("0 pending reports", empty.times, empty.cpu),
            row("a previous run to settle (it crashed: its record and its report)", settle.times, settle.cpu),
            row("100 pending reports", loaded.times, loaded.cpu),
        ]
        if Peer.available {
            let peer = try (0..<runs).map { _ in try Peer.initMicroseconds() }
            lines.append(
                row(
                    "\(Peer.name): sentry_init, empty database", Stats(samples: peer.map(\.wall)),
                    Stats(samples: peer.map(\.cpu))))
        }
        lines += [
            "",
            "CPU time: the calling thread's (CLOCK_THREAD_CPUTIME_ID), which a loaded machine disturbs less.",
            "Memory reserved by start(): \(empty.reserved) bytes (\(format(Double(empty.reserved) / 1024, 0)) KiB).",
        ]
        if !Peer.available { lines.append(Peer.skipped) }
        return lines
    }

    /// With `previousCrash`, each fresh process first finds the run before it crashed (crash-test
    /// crashed once in that directory): its run record to settle and its report pending.
    static func measure(
        binary: String, runs: Int, pending: Int, report: URL, previousCrash: Bool = false
    ) throws -> (times: Stats, cpu: Stats, reserved: Int) {
        var times: [Double] = []
        var cpu: [Double] = []
        var reserved = 0
        let data = try Data(contentsOf: report)
        for _ in 0..<runs {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("start-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: dir) }
            let pendingDir = dir.appendingPathComponent("pending")
            try FileManager.default.createDirectory(at: pendingDir, withIntermediateDirectories: true)
            for _ in 0..<pending {
                try data.write(to: pendingDir.appendingPathComponent("\(UUID().uuidString.lowercased()).crash"))
            }
            if previousCrash { try crashIn(dir, binary: binary) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["run"]
            process.environment = [
                "CRASH_REPORTER_DIR": dir.path, "CRASH_TEST_TIMING": "1", "SWIFT_BACKTRACE": "enable=no",
                "PATH": "/usr/bin:/bin", "CRASH_REPORTER_URL": "http://127.0.0.1:9/api/reports",
                "CRASH_REPORTER_RETRY_BASE_SECONDS": "3600",
            ]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            for field in output.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
                let parts = field.split(separator: "=")
                guard parts.count == 2, let value = Double(parts[1]) else { continue }
                if parts[0] == "start_ns" { times.append(value / 1000) }
                if parts[0] == "start_cpu_ns" { cpu.append(value / 1000) }
                if parts[0] == "reserved_bytes" { reserved = Int(value) }
            }
        }
        return (Stats(samples: times), Stats(samples: cpu), reserved)
    }

    /// Crashes crash-test once with `dir` as its state directory.
    static func crashIn(_ dir: URL, binary: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["crash", "segfault"]
        process.environment = ["CRASH_REPORTER_DIR": dir.path, "SWIFT_BACKTRACE": "enable=no", "PATH": "/usr/bin:/bin"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
    }
}
