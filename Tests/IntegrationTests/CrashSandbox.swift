import Foundation
import TestSupport

/// A fresh home and state directory for one crashing child, with secrets planted where a
/// careless reporter would pick them up: the user name in the home path, an environment
/// variable, a command-line argument, and personal data in a breadcrumb value.
struct CrashSandbox {
    static let plantedUser = "planteduserq4x7"
    static let plantedEnvironmentValue = "planted-env-secret-7Hq2"
    static let plantedArgument = "planted-arg-secret-K9z3"
    static let plantedEmail = "alice.planted@example.com"
    static let plantedIP = "203.0.113.77"
    static let plantedCard = "4111 1111 1111 1111"
    static var plantedNote: String { "mail \(plantedEmail) from \(plantedIP) card \(plantedCard)" }
    /// Strings that must never appear in a report.
    static var secrets: [String] {
        let host = hostName()
        // A host name as short as "vm" would match by chance; the host-name test plants a long one.
        return [plantedUser, plantedEnvironmentValue, plantedArgument, plantedEmail, plantedIP, plantedCard]
            + (host.count >= 8 ? [host] : [])
    }

    let root: URL
    let home: URL
    let state: URL
    let binary: URL

    /// Copies `binary` into `~/bin` of the sandbox's home, so that its path holds the user name.
    init(binary source: URL) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID().uuidString)")
        home = root.appendingPathComponent("home/\(Self.plantedUser)")
        state = root.appendingPathComponent("state")
        let bin = home.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        binary = bin.appendingPathComponent("crash-test")
        try Self.copyExecutable(from: source, to: binary)
    }

    /// Copies in a `cp` process of its own, so that this process never has the copy open for
    /// writing: a child that a concurrent test spawns holds its parent's descriptors until its
    /// own exec, close-on-exec ones included, and exec of the copy meanwhile fails with ETXTBSY.
    static func copyExecutable(from source: URL, to target: URL) throws {
        _ = try ProgramRun.output("/bin/cp", [source.path, target.path])
    }

    var pending: URL { state.appendingPathComponent("pending") }

    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = [
            "PATH": "/usr/bin:/bin",
            "HOME": home.path,
            "USER": Self.plantedUser,
            "LOGNAME": Self.plantedUser,
            "CRASH_REPORTER_DIR": state.path,
            "SWIFT_BACKTRACE": "enable=no",
            "PLANTED_SECRET": Self.plantedEnvironmentValue,
        ]
        // A sanitizer build's children need the run's options (scripts/sanitizers.sh).
        for name in ["ASAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS", "LSAN_OPTIONS"] {
            if let value = ProcessInfo.processInfo.environment[name] { env[name] = value }
        }
        env.merge(extra) { $1 }
        return env
    }

    func run(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> ChildProcess.Result {
        try await ChildProcess.run([binary.path] + arguments, environment: environment(extra))
    }

    /// Crashes the child in the given way, with the planted note and argument.
    func crash(_ kind: String, environment extra: [String: String] = [:]) async throws -> ChildProcess.Result {
        try await run(["crash", kind, "--note", Self.plantedNote, Self.plantedArgument], environment: extra)
    }

    func files(withSuffix suffix: String) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: pending.path)) ?? []
        return names.filter { $0.hasSuffix(suffix) }.sorted().map { pending.appendingPathComponent($0) }
    }

    var reports: [URL] { files(withSuffix: ".crash") }

    func remove() { try? FileManager.default.removeItem(at: root) }

    static func hostName() -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
    }
}
