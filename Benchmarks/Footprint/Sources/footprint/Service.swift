import Foundation

/// One measured launch of a footprint binary.
struct Sample {
    var mainMilliseconds: Double
    var readyMilliseconds: Double
    var listeningMilliseconds: Double
    var libraries: [String]
    var rssMiB: Double
    /// Of the RSS: pages mapped from files (code, read-only data) and anonymous ones.
    var fileMiB: Double
    var anonymousMiB: Double
    /// Pages only this process has and wrote (smaps_rollup's Private_Dirty).
    var privateDirtyMiB: Double
}

/// A footprint binary (`plain-service` or `reporter-service`).
struct Service {
    var name: String
    var path: String

    /// Spawns it, reads its probe lines until `done`, and kills it. Times count from just before
    /// posix_spawn to the CLOCK_MONOTONIC marks the process took itself.
    func measure(environment: [String]) throws -> Sample {
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { throw Failure("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let start = Self.monotonicNanoseconds()
        guard posix_spawn(&pid, path, &actions, nil, argv, envp) == 0 else { throw Failure("cannot run \(path)") }
        close(pipe[1])
        let output = FileHandle(fileDescriptor: pipe[0], closeOnDealloc: true)
        var text = ""
        while !text.contains("done\n") {
            let chunk = output.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        try? output.close()
        var marks: [String: Int64] = [:]
        var libraries: [String] = []
        var memory: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 2)
            switch fields.first {
            case "mark" where fields.count == 3: marks[String(fields[1])] = Int64(fields[2])
            case "library" where fields.count >= 2: libraries.append(String(line.dropFirst("library ".count)))
            case "rss", "rss_file", "rss_anon", "private_dirty":
                if fields.count == 2 { memory[String(fields[0])] = Int(fields[1]) ?? 0 }
            default: break
            }
        }
        guard let main = marks["main"], let ready = marks["ready"], let listening = marks["listening"] else {
            throw Failure("\(path) did not report its marks:\n\(text)")
        }
        return Sample(
            mainMilliseconds: Double(main - start) / 1e6,
            readyMilliseconds: Double(ready - start) / 1e6, listeningMilliseconds: Double(listening - start) / 1e6,
            libraries: libraries, rssMiB: Double(memory["rss"] ?? 0) / 1024,
            fileMiB: Double(memory["rss_file"] ?? 0) / 1024, anonymousMiB: Double(memory["rss_anon"] ?? 0) / 1024,
            privateDirtyMiB: Double(memory["private_dirty"] ?? 0) / 1024)
    }

    static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Medians and percentiles for the tables.
enum Stats {
    static func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }

    static func text(_ values: [Double]) -> String {
        "\(format(median(values), 2)) / \(format(percentile(values, 0.9), 2))"
    }

    static func format(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
}
