import Foundation

/// Fault to the parent's waitpid, with the reporter, without it and with Swift's backtracer,
/// for the same crash of the release `crash-test`, interleaved run by run.
enum CrashBenchmark {
    struct Run {
        var microseconds: Double
        var reportBytes: Int?
    }

    /// A report of the reporter's runs, kept for the benchmarks that read reports.
    nonisolated(unsafe) static var keptReport: URL?

    static func crashOnce(
        binary: String, environment: [String: String], kind: String = "segfault", keep: URL? = nil,
        arguments commandArguments: [String]? = nil
    ) throws -> Run {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Close the read end first: it may itself be descriptor 3.
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_adddup2(&actions, fds[1], 3)
        var env = environment
        env["CRASH_REPORTER_DIR"] = dir.path
        env["CRASH_TEST_BREADCRUMBS"] = "100"
        env["CRASH_TEST_FAULT_TIME_FD"] = "3"
        let arguments: [String] = [binary] + (commandArguments ?? ["crash", kind])
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        guard posix_spawn(&pid, binary, &actions, nil, argv, envp) == 0 else { throw POSIXError(.ENOENT) }
        close(fds[1])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let reaped = UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
        var faulted: UInt64 = 0
        let got = read(fds[0], &faulted, 8)
        close(fds[0])
        guard got == 8, faulted > 0 else { throw POSIXError(.EIO) }
        let pending = dir.appendingPathComponent("pending")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: pending.path)) ?? []
        let size = names.first { $0.hasSuffix(".crash") }.flatMap { name in
            (try? FileManager.default.attributesOfItem(atPath: pending.appendingPathComponent(name).path))?[.size]
                as? Int
        }
        if let keep, let name = names.first(where: { $0.hasSuffix(".crash") }) {
            try? FileManager.default.copyItem(at: pending.appendingPathComponent(name), to: keep)
        }
        if keptReport == nil, let name = names.first(where: { $0.hasSuffix(".crash") }) {
            let kept = FileManager.default.temporaryDirectory.appendingPathComponent("bench-kept-\(name)")
            try? FileManager.default.copyItem(at: pending.appendingPathComponent(name), to: kept)
            keptReport = kept
        }
        return Run(microseconds: Double(reaped - faulted) / 1000, reportBytes: size)
    }

    static func run(binary: String, runs: Int) throws -> [String] {
        let base = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        let configurations: [(String, [String: String])] = [
            ("no reporter", base.merging(["CRASH_REPORTER_DISABLED": "1", "SWIFT_BACKTRACE": "enable=no"]) { $1 }),
            ("swift-crash-reporter, 100 breadcrumbs", base.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }),
            (
                "Swift backtracer (SWIFT_BACKTRACE=enable=yes)",
                base.merging(["CRASH_REPORTER_DISABLED": "1", "SWIFT_BACKTRACE": "enable=yes,interactive=no"]) { $1 }
            ),
        ]
        var samples = Array(repeating: [Double](), count: configurations.count)
        var sizes: [Int] = []
        for _ in 0..<runs {
            for (i, configuration) in configurations.enumerated() {
                let run = try crashOnce(binary: binary, environment: configuration.1)
                samples[i].append(run.microseconds)
                if i == 1, let size = run.reportBytes { sizes.append(size) }
            }
        }
        var lines = [
            "| fault to waitpid (\(runs) runs each, interleaved), µs | median | p90 | min |", "|---|---|---|---|",
        ]
        for (i, configuration) in configurations.enumerated() {
            let s = Stats(samples: samples[i])
            lines.append("| \(configuration.0) | \(format(s.median, 0)) | \(format(s.p90, 0)) | \(format(s.min, 0)) |")
        }
        let overhead = Stats(samples: samples[1]).median - Stats(samples: samples[0]).median
        lines.append("")
        lines.append("Reporter overhead (median − no reporter median): \(format(overhead, 0)) µs.")
        if let size = Stats(samples: sizes.map(Double.init)).sorted.last {
            lines.append("Report size with 100 breadcrumbs (gzip): \(Int(size)) bytes (largest of \(sizes.count)).")
        }
        return lines
    }
}
