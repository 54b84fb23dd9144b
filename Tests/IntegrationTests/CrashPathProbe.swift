import Foundation

/// The crash-path probe (`scripts/crash-path-probe/probe.c`), an `LD_PRELOAD` library that logs
/// every call to the allocator or to a lock made by a thread on its alternate signal stack or
/// while it writes a report, and its own test program; both built with the system's `cc` into a
/// folder of their own (docs/signal-safety.md, "The probe").
struct CrashPathProbe {
    let directory: URL
    var library: URL { directory.appendingPathComponent("probe.so") }
    var selfTest: URL { directory.appendingPathComponent("allocating_handler") }

    /// What one probed process logged.
    struct Log {
        var loaded: Bool
        var writerHook: Bool
        var violations: [String]
    }

    static func build() async throws -> CrashPathProbe {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let probe = CrashPathProbe(directory: directory)
        let sources = Binaries.packageRoot.appendingPathComponent("scripts/crash-path-probe")
        let commands = [
            [
                "cc", "-shared", "-fPIC", "-O1", "-o", probe.library.path,
                sources.appendingPathComponent("probe.c").path, "-ldl",
            ],
            [
                "cc", "-O0", "-o", probe.selfTest.path,
                sources.appendingPathComponent("allocating_handler.c").path, "-lpthread",
            ],
        ]
        for command in commands {
            let result = try await ChildProcess.run(["/usr/bin/env"] + command, environment: ["PATH": "/usr/bin:/bin"])
            guard result.exitCode == 0 else {
                throw EndToEndError("\(command.joined(separator: " ")) failed: \(result.stderr)")
            }
        }
        return probe
    }

    /// The variables that load the probe into a child and name its log.
    func environment(log: URL) -> [String: String] {
        ["LD_PRELOAD": library.path, "CRASH_PATH_PROBE_LOG": log.path]
    }

    static func read(_ log: URL) -> Log {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n").map(String.init)
        return Log(
            loaded: lines.contains { $0.hasPrefix("probe loaded") },
            writerHook: lines.contains("probe loaded writer-hook=1"),
            violations: lines.filter { $0.hasPrefix("violation ") })
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}
