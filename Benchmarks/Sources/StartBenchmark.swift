import Foundation

/// `start()` time and reserved memory, measured in fresh `crash-test run` processes.
enum StartBenchmark {
    static func run(binary: String, runs: Int) throws -> [String] {
        var times: [Double] = []
        var reserved = 0
        for _ in 0..<runs {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("start-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: dir) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["run"]
            process.environment = [
                "CRASH_REPORTER_DIR": dir.path, "CRASH_TEST_TIMING": "1", "SWIFT_BACKTRACE": "enable=no",
                "PATH": "/usr/bin:/bin",
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
                if parts[0] == "reserved_bytes" { reserved = Int(value) }
            }
        }
        let s = Stats(samples: times)
        return [
            "| start() (\(runs) fresh processes), µs | median | p90 | min |", "|---|---|---|---|",
            "| CrashReporter.start | \(format(s.median, 0)) | \(format(s.p90, 0)) | \(format(s.min, 0)) |",
            "",
            "Memory reserved by start(): \(reserved) bytes (\(format(Double(reserved) / 1024, 0)) KiB).",
        ]
    }
}
