import CrashReporterSupport
import Foundation

/// Fault to the parent's waitpid, with the reporter, without it and with Swift's backtracer,
/// for the same crash of the release `crash-test`, interleaved run by run.
enum CrashBenchmark {
    struct Run {
        var microseconds: Double
        var reportBytes: Int?
        /// With `stderrPipe`: the bytes the child wrote to its stderr.
        var stderrBytes: Int = 0
        /// With `profile`: the handler's marks and totals (scr_crash_profile), and the fault and
        /// waitpid times, all CLOCK_MONOTONIC ns.
        var profile: CrashProfile.Sample?
    }

    /// A report of the reporter's runs, kept for the benchmarks that read reports.
    nonisolated(unsafe) static var keptReport: URL?

    /// Crashes `binary` once (`crash KIND` of crash-test, or `commandArguments`, where "{state}"
    /// stands for the state directory made for the run) and times fault to waitpid. With
    /// `profile`, the handler writes its phases to descriptor 4 (CRASH_TEST_PROFILE_FD). With
    /// `stderrPipe`, the child's stderr is a pipe that a thread of this process drains, as a log
    /// agent does (else /dev/null).
    static func crashOnce(
        binary: String, environment: [String: String], kind: String = "segfault", keep: URL? = nil,
        arguments commandArguments: [String]? = nil, profile: Bool = false, stderrPipe: Bool = false
    ) throws -> Run {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var fds: [Int32] = [0, 0]
        var profileFDs: [Int32] = [-1, -1]
        guard pipe(&fds) == 0, !profile || pipe(&profileFDs) == 0 else { throw POSIXError(.EMFILE) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        var stderrFDs: [Int32] = [-1, -1]
        if stderrPipe {
            guard pipe(&stderrFDs) == 0 else { throw POSIXError(.EMFILE) }
            posix_spawn_file_actions_addclose(&actions, stderrFDs[0])
            posix_spawn_file_actions_adddup2(&actions, stderrFDs[1], 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        // Close the read ends first: one may itself be descriptor 3 or 4.
        posix_spawn_file_actions_addclose(&actions, fds[0])
        if profile { posix_spawn_file_actions_addclose(&actions, profileFDs[0]) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 3)
        if profile { posix_spawn_file_actions_adddup2(&actions, profileFDs[1], 4) }
        var env = environment
        env["CRASH_REPORTER_DIR"] = dir.path
        env["CRASH_TEST_BREADCRUMBS"] = "100"
        env["CRASH_TEST_FAULT_TIME_FD"] = "3"
        if profile { env["CRASH_TEST_PROFILE_FD"] = "4" }
        let arguments: [String] =
            [binary] + (commandArguments ?? ["crash", kind]).map { $0 == "{state}" ? dir.path : $0 }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        guard posix_spawn(&pid, binary, &actions, nil, argv, envp) == 0 else { throw POSIXError(.ENOENT) }
        close(fds[1])
        if profile { close(profileFDs[1]) }
        let drained = stderrPipe ? StderrDrain(fd: stderrFDs[0]) : nil
        if stderrPipe { close(stderrFDs[1]) }
        var status: Int32 = 0
        _ = try? SystemCall.run("waitpid") { waitpid(pid, &status, 0) }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let reaped = UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
        let stderrBytes = drained?.finish() ?? 0
        var faulted: UInt64 = 0
        let got = read(fds[0], &faulted, 8)
        close(fds[0])
        guard got == 8, faulted > 0 else { throw POSIXError(.EIO) }
        var sample: CrashProfile.Sample?
        if profile {
            sample = CrashProfile.Sample.read(from: profileFDs[0], faulted: faulted, reaped: reaped)
            close(profileFDs[0])
        }
        let pending = dir.appendingPathComponent("pending")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: pending.path)) ?? []
        let size =
            names.first { $0.hasSuffix(".crash") }.flatMap { name in
                (try? FileManager.default.attributesOfItem(atPath: pending.appendingPathComponent(name).path))?[.size]
                    as? Int
            } ?? largestFile(under: dir)
        if let keep, let name = names.first(where: { $0.hasSuffix(".crash") }) {
            try? FileManager.default.copyItem(at: pending.appendingPathComponent(name), to: keep)
        }
        if keptReport == nil, let name = names.first(where: { $0.hasSuffix(".crash") }) {
            let kept = FileManager.default.temporaryDirectory.appendingPathComponent("bench-kept-\(name)")
            try? FileManager.default.copyItem(at: pending.appendingPathComponent(name), to: kept)
            keptReport = kept
        }
        return Run(
            microseconds: Double(reaped - faulted) / 1000, reportBytes: size, stderrBytes: stderrBytes, profile: sample)
    }

    /// The largest file the peer left in its database (its crash's envelope), nil when none.
    static func largestFile(under dir: URL) -> Int? {
        guard let files = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: [.fileSizeKey]) else {
            return nil
        }
        let sizes = files.compactMap {
            ($0 as? URL).flatMap { try? $0.resourceValues(forKeys: [.fileSizeKey]).fileSize }
        }
        return sizes.max()
    }

    struct Configuration {
        var label: String
        var binary: String
        var environment: [String: String]
        var arguments: [String]? = nil
        var profile = false
    }

    /// Fault to waitpid, interleaved run by run, in three rounds: crash-test without the reporter,
    /// with it (its runs also profiled) and with Swift's backtracer; then, when built, the peer's
    /// bare C program and the same with sentry-native. Each overhead is over its own bare program,
    /// round by round.
    static func run(binary: String, runs: Int) throws -> [String] {
        // CRASH_TEST_LAST_RUN reads CrashReporter.lastRun before the crash, which waits for start()'s
        // background settle: the crash measured is one of a running service, not of its first
        // millisecond (which waits for the run record, docs/runs.md).
        let base = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory(), "CRASH_TEST_LAST_RUN": "1"]
        var configurations = [
            Configuration(
                label: "no reporter (crash-test)", binary: binary,
                environment: base.merging(["CRASH_REPORTER_DISABLED": "1", "SWIFT_BACKTRACE": "enable=no"]) { $1 }),
            Configuration(
                label: "swift-crash-reporter, 100 breadcrumbs", binary: binary,
                environment: base.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }, profile: true),
            Configuration(
                label: "Swift backtracer (SWIFT_BACKTRACE=enable=yes)", binary: binary,
                environment: base.merging([
                    "CRASH_REPORTER_DISABLED": "1", "SWIFT_BACKTRACE": "enable=yes,interactive=no",
                ]) {
                    $1
                }),
        ]
        if Peer.available {
            configurations.append(
                Configuration(
                    label: "no reporter (the peer's bare C program)", binary: Peer.bare, environment: base,
                    arguments: ["crash", "{state}", "100"]))
            configurations.append(
                Configuration(
                    label: "\(Peer.name), 100 breadcrumbs", binary: Peer.bench, environment: base,
                    arguments: ["crash", "{state}", "100"]))
        }
        // Three rounds of `runs` interleaved runs each: an overhead is only as good as its spread
        // across rounds, so each round's is shown and the range across them (an independent run
        // of the same programs should fall inside it).
        let rounds = 3
        var samples = Array(repeating: [Double](), count: configurations.count)
        var roundMedians = Array(repeating: [Double](), count: configurations.count)
        var sizes = Array(repeating: [Int](), count: configurations.count)
        var profiles: [CrashProfile.Sample] = []
        for _ in 0..<rounds {
            var round = Array(repeating: [Double](), count: configurations.count)
            for _ in 0..<runs {
                for (i, configuration) in configurations.enumerated() {
                    let run = try crashOnce(
                        binary: configuration.binary, environment: configuration.environment,
                        arguments: configuration.arguments, profile: configuration.profile)
                    round[i].append(run.microseconds)
                    if let size = run.reportBytes { sizes[i].append(size) }
                    if let profile = run.profile { profiles.append(profile) }
                }
            }
            for i in configurations.indices {
                samples[i] += round[i]
                roundMedians[i].append(Stats(samples: round[i]).median)
            }
        }
        var lines = [
            "| fault to waitpid (\(rounds) rounds of \(runs) interleaved runs), µs | median | p90 | min | round medians |",
            "|---|---|---|---|---|",
        ]
        for (i, configuration) in configurations.enumerated() {
            let s = Stats(samples: samples[i])
            let perRound = roundMedians[i].map { format($0, 0) }.joined(separator: ", ")
            lines.append(
                "| \(configuration.label) | \(format(s.median, 0)) | \(format(s.p90, 0)) | \(format(s.min, 0)) | \(perRound) |"
            )
        }
        /// Each round's overhead of configuration `i` over its bare program `bare`.
        let overheads = { (i: Int, bare: Int) in (0..<rounds).map { roundMedians[i][$0] - roundMedians[bare][$0] } }
        let range = { (values: [Double]) in "\(format(values.min()!, 0))–\(format(values.max()!, 0))" }
        let ours = overheads(1, 0)
        lines.append("")
        lines.append(
            "Reporter overhead (round median − no reporter's round median): \(range(ours)) µs across the rounds "
                + "(\(ours.map { format($0, 0) }.joined(separator: ", "))).")
        if configurations.count == 5 {
            let peer = overheads(4, 3)
            let ratios = (0..<rounds).map { ours[$0] / peer[$0] * 100 }
            lines.append(
                "\(Peer.name) overhead (over its bare program): \(range(peer)) µs "
                    + "(\(peer.map { format($0, 0) }.joined(separator: ", "))); "
                    + "ours is \(range(ratios)) % of it, round by round (target: at most 100 % in every round, 50 % the goal)."
            )
        } else {
            lines.append(Peer.skipped)
        }
        if let size = sizes[1].max() {
            lines.append("Report size with 100 breadcrumbs (gzip): \(size) bytes (largest of \(sizes[1].count)).")
        }
        if configurations.count == 5, let size = sizes[4].max() {
            lines.append(
                "\(Peer.name)'s crash envelope with 100 breadcrumbs (uncompressed, crashing thread only): \(size) bytes."
            )
        }
        lines.append("")
        lines += CrashProfile.table(profiles)
        return lines
    }
}
