import Foundation

/// A child process started with posix_spawn, so that the test sees the raw wait status
/// (terminating signal and core-dump bit), which Foundation's Process hides.
struct ChildProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String

        /// The signal that ended the child, nil if it exited.
        var signal: Int32? { (status & 0x7f) != 0 && (status & 0x7f) != 0x7f ? status & 0x7f : nil }
        /// The exit code, nil if a signal ended the child.
        var exitCode: Int32? { (status & 0x7f) == 0 ? (status >> 8) & 0xff : nil }
        var dumpedCore: Bool { (status & 0x80) != 0 }
    }

    struct Timeout: Error, CustomStringConvertible {
        var command: [String]
        var description: String { "child did not end in time: \(command.joined(separator: " "))" }
    }

    /// A started child, to wait for.
    final class Running {
        let pid: pid_t
        let arguments: [String]
        let directory: URL
        let timeout: Double

        init(pid: pid_t, arguments: [String], directory: URL, timeout: Double) {
            self.pid = pid
            self.arguments = arguments
            self.directory = directory
            self.timeout = timeout
        }

        /// Waits for the child (killing it after the timeout) and returns what it did. It polls
        /// with Task.sleep rather than blocking in waitpid, so that waiting tests never hold a
        /// thread of the cooperative pool that the asynchronous tests need.
        func wait() async throws -> Result {
            defer { try? FileManager.default.removeItem(at: directory) }
            var status: Int32 = 0
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                let r = waitpid(pid, &status, WNOHANG)
                if r == pid { break }
                if r < 0 && errno != EINTR { throw Timeout(command: arguments) }
                if Date() > deadline {
                    kill(pid, SIGKILL)
                    _ = waitpid(pid, &status, 0)
                    throw Timeout(command: arguments)
                }
                try await Task.sleep(for: .milliseconds(2))
            }
            let out = (try? String(contentsOf: directory.appendingPathComponent("stdout"), encoding: .utf8)) ?? ""
            let err = (try? String(contentsOf: directory.appendingPathComponent("stderr"), encoding: .utf8)) ?? ""
            return Result(status: status, stdout: out, stderr: err)
        }
    }

    /// Starts `arguments[0]` with `arguments` and exactly `environment`.
    static func start(_ arguments: [String], environment: [String: String], timeout: Double = 60) throws -> Running {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let outPath = dir.appendingPathComponent("stdout").path
        let errPath = dir.appendingPathComponent("stderr").path

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // Every signal at its default action and none blocked, whatever this process inherited
        // (a shell starting the tests in the background ignores SIGQUIT, for one).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        var none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        var spawned = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        // A copy just written may still be open for writing in a child that another test is
        // forking at this instant (ETXTBSY); that passes within milliseconds.
        for _ in 0..<100 where spawned == ETXTBSY {
            usleep(10_000)
            spawned = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        }
        guard spawned == 0 else {
            try? FileManager.default.removeItem(at: dir)
            throw NSError(
                domain: NSPOSIXErrorDomain, code: Int(spawned),
                userInfo: [
                    NSLocalizedDescriptionKey: "posix_spawn \(arguments[0]): \(String(cString: strerror(spawned)))"
                ])
        }
        return Running(pid: pid, arguments: arguments, directory: dir, timeout: timeout)
    }

    /// Runs `arguments[0]` with `arguments` and exactly `environment`, and waits for it
    /// (killing it after `timeout` seconds).
    static func run(_ arguments: [String], environment: [String: String], timeout: Double = 60) async throws -> Result {
        try await start(arguments, environment: environment, timeout: timeout).wait()
    }
}

extension ChildProcess {
    /// Runs a `swift build` or `swift package` command of the tests, one at a time in this process:
    /// SwiftPM processes share the user's caches (manifests, repositories) and can fail on each
    /// other's locks, and two builds at once only share the same cores.
    static func runSwiftPM(
        _ arguments: [String], environment: [String: String], timeout: Double
    ) async throws -> Result {
        await SwiftPMTurn.shared.acquire()
        defer { Task { await SwiftPMTurn.shared.release() } }
        return try await run(["/usr/bin/env", "swift"] + arguments, environment: environment, timeout: timeout)
    }
}

/// Whose turn it is to run SwiftPM.
private actor SwiftPMTurn {
    static let shared = SwiftPMTurn()
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
