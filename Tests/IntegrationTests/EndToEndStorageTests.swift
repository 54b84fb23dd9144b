import Foundation
import Testing

/// A full disk or a read-only state directory must never crash the service. Each test mounts
/// a tiny tmpfs over the sandbox's state directory in a mount namespace of its own
/// (`unshare -m`, which needs root, like the host-name test's `unshare --uts`): a holder
/// process keeps the namespace alive, the service runs in it through `nsenter -m`, and the
/// test looks at the files through `/proc/<holder>/root`. Nothing is mounted on the host.
@Suite("End to end: full disk and read-only state directory", .serialized)
struct EndToEndStorageTests {
    let binary = Binaries.crashTest(build: "debug")

    /// A mount namespace in which `directory` is a fresh tmpfs mounted with `options`, set up
    /// by `setup` (shell, `$0` is the directory), held open by a sleeping process.
    final class MountNamespace {
        let holder: ChildProcess.Running
        let directory: URL
        private var ended = false

        init(directory: URL, options: String, setup: String = "true") async throws {
            self.directory = directory
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let script = "mount -t tmpfs -o \(options) tmpfs \"$0\" && \(setup) && echo ready && exec sleep 300"
            holder = try ChildProcess.start(
                ["/usr/bin/unshare", "-m", "/bin/sh", "-c", script, directory.path],
                environment: ["PATH": "/usr/bin:/bin"], timeout: 10)
            let stdout = holder.directory.appendingPathComponent("stdout")
            // Read once more after the deadline (this task may wait long for a thread in a full run).
            let deadline = Date().addingTimeInterval(30)
            while true {
                if let text = try? String(contentsOf: stdout, encoding: .utf8), text.contains("ready") { return }
                if Date() > deadline { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            kill(holder.pid, SIGKILL)
            let result = try? await holder.wait()
            ended = true
            throw EndToEndError(
                "no tmpfs in a mount namespace within 30 s (needs root): status \(result?.status ?? -1), \(result?.stderr ?? "")"
            )
        }

        /// `path` as the processes in the namespace see it.
        func inside(_ path: String) -> String { "/proc/\(holder.pid)/root\(path)" }

        /// Runs `arguments` inside the namespace (nsenter execs it: the wait status is its own).
        func run(_ arguments: [String], environment: [String: String]) async throws -> ChildProcess.Result {
            try await ChildProcess.run(
                ["/usr/bin/nsenter", "-t", String(holder.pid), "-m"] + arguments, environment: environment, timeout: 40)
        }

        /// Writes zeros into a file in the tmpfs until the file system is full.
        func fill() throws {
            let fd = open(inside(directory.path + "/filler"), O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw EndToEndError("cannot create the filler: errno \(errno)") }
            defer { close(fd) }
            let block = [UInt8](repeating: 0, count: 4096)
            while write(fd, block, block.count) > 0 {}
            guard errno == ENOSPC else { throw EndToEndError("filling stopped with errno \(errno), not ENOSPC") }
        }

        func names(in folder: String) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: inside(directory.path + "/" + folder))) ?? [])
                .sorted()
        }

        func end() async {
            kill(holder.pid, SIGKILL)
            ended = true
            _ = try? await holder.wait()
        }

        deinit {
            guard !ended else { return }
            kill(holder.pid, SIGKILL)
            _ = waitpid(holder.pid, nil, 0)
            try? FileManager.default.removeItem(at: holder.directory)
        }
    }

    @Test("a full state directory: the crash still dies of SIGSEGV, leaves no half report, and the next run exits 0")
    func fullDisk() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let namespace = try await MountNamespace(directory: sandbox.state, options: "size=64k,mode=0700")
        let environment = sandbox.environment()
        // One report written while there is room, to see that a full disk loses nothing.
        let first = try await namespace.run([sandbox.binary.path, "crash", "segfault"], environment: environment)
        #expect(first.signal == SIGSEGV)
        let earlier = namespace.names(in: "pending").filter { $0.hasSuffix(".crash") }
        try #require(earlier.count == 1, "a report fits in 64 KiB: \(namespace.names(in: "pending"))")

        try namespace.fill()
        let crashed = try await namespace.run(
            [sandbox.binary.path, "crash", "segfault", "--note", CrashSandbox.plantedNote], environment: environment)
        #expect(crashed.signal == SIGSEGV, "died of the same signal with the disk full: \(crashed.status)")
        #expect(
            namespace.names(in: "pending").filter { $0.hasSuffix(".crash") } == earlier,
            "no half-written report is renamed into place")

        let collector = try await CollectorChild(data: sandbox.scratch("collector"), home: sandbox.home)
        let run = try await namespace.run(
            [sandbox.binary.path, "run"], environment: sandbox.environment(["CRASH_REPORTER_URL": collector.reportsURL])
        )
        #expect(run.exitCode == 0, "the service itself must not suffer: \(run.stderr)")
        // The earlier report is either delivered or still pending: never lost.
        let stored = collector.files("reports")
        let pending = namespace.names(in: "pending").filter { $0.hasSuffix(".crash") }
        #expect(stored == earlier || pending == earlier, "stored \(stored), pending \(pending)")
        await namespace.end()
        _ = try await collector.stop()
    }

    @Test("a read-only state directory: the service runs, says so once, and its crash goes to stderr")
    func readOnly() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let namespace = try await MountNamespace(directory: sandbox.state, options: "size=64k,ro")
        let run = try await namespace.run([sandbox.binary.path, "run"], environment: sandbox.environment())
        #expect(run.exitCode == 0, "\(run.stderr)")
        #expect(
            run.stderr.contains("crash reports cannot be kept on disk") && run.stderr.contains("standard error only"),
            "\(run.stderr)")
        #expect(run.stdout.contains("crash-test: ran normally"))

        let crashed = try await namespace.run(
            [sandbox.binary.path, "crash", "segfault"], environment: sandbox.environment())
        #expect(crashed.signal == SIGSEGV)
        #expect(crashed.stderr.contains("crash-reporter-data:1 "), "the report, on stderr: \(crashed.stderr)")
        #expect(namespace.names(in: "").isEmpty)

        // With the stderr copy off there is nowhere to keep a crash: reporting is off, as it says.
        let off = try await namespace.run(
            [sandbox.binary.path, "run"], environment: sandbox.environment(["CRASH_REPORTER_STDERR": "off"]))
        #expect(off.exitCode == 0, "\(off.stderr)")
        #expect(off.stderr.contains("crash-test: crash reporting is off"), "\(off.stderr)")
        await namespace.end()
    }

    @Test(
        "a state directory made read-only after its pending/ exists: start() says so; the next crash goes to stderr"
    )
    func readOnlyWithPending() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let namespace = try await MountNamespace(
            directory: sandbox.state, options: "size=64k",
            setup: "mkdir -p \"$0/pending\" && mount -o remount,ro \"$0\"")
        let run = try await namespace.run([sandbox.binary.path, "run"], environment: sandbox.environment())
        #expect(run.exitCode == 0, "\(run.stderr)")
        #expect(run.stderr.contains("crash reports cannot be kept on disk (cannot write"), "\(run.stderr)")
        #expect(namespace.names(in: "pending").isEmpty)
        await namespace.end()
    }
}
