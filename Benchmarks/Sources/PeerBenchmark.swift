import Foundation

/// The peer measured beside this reporter in the same run: sentry-native 0.16.3 (in-process
/// backend), built by scripts/build-peer.sh into `.build/peer/bin` with the two programs of
/// Benchmarks/Peer/peer-bench.c. Without them (no ../shared/peers), every peer row is skipped and
/// the benchmark says so once.
enum Peer {
    static let name = "sentry-native 0.16.3 inproc"
    /// `.build/peer/bin`: the `.build` above this benchmark's executable.
    static let directory: URL = {
        var url = executableDirectory
        while url.path != "/" && url.lastPathComponent != ".build" { url.deleteLastPathComponent() }
        return url.appendingPathComponent("peer/bin")
    }()
    static let bench = directory.appendingPathComponent("peer-bench").path
    static let bare = directory.appendingPathComponent("peer-bare").path
    static var available: Bool {
        FileManager.default.isExecutableFile(atPath: bench) && FileManager.default.isExecutableFile(atPath: bare)
    }
    static let skipped = "(\(name) is not built: ../shared/peers is missing; its rows are skipped.)"

    /// Runs `peer-bench` with `arguments`; the value of `key=` in what it prints.
    static func value(_ key: String, arguments: [String]) throws -> Double {
        try values([key], arguments: arguments)[0]
    }

    /// Runs `peer-bench` with `arguments`; the values of `keys` in what it prints.
    static func values(_ keys: [String], arguments: [String]) throws -> [Double] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: bench)
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var found: [String: Double] = [:]
        for field in output.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let parts = field.split(separator: "=")
            if parts.count == 2, let value = Double(parts[1]) { found[String(parts[0])] = value }
        }
        return try keys.map { key in
            guard let value = found[key] else { throw POSIXError(.EIO) }
            return value
        }
    }

    /// sentry_add_breadcrumb with one data pair, ns per record on 1 and 2 threads (best of three).
    static func breadcrumbs() throws -> (one: Double, two: Double) {
        let records = String(BreadcrumbBenchmark.perThread / 10)
        return (
            try value("ns_per_record", arguments: ["breadcrumbs", "1", records]),
            try value("ns_per_record", arguments: ["breadcrumbs", "2", records])
        )
    }

    /// sentry_init in a fresh process with an empty database, µs: wall clock and the calling
    /// thread's CPU time.
    static func initMicroseconds() throws -> (wall: Double, cpu: Double) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("peer-init-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let found = try values(["init_ns", "init_cpu_ns"], arguments: ["init", dir.path])
        return (found[0] / 1000, found[1] / 1000)
    }
}
