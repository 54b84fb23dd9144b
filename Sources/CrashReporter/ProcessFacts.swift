import CrashReporterSupport
import Glibc

/// What the kernel says about processes, the boot and memory cgroups, read from `/proc` and
/// `/sys/fs/cgroup` for the run records. The parsers are separate from the reads so that the
/// tests can feed them text.
enum ProcessFacts {
    /// Files read here are small; anything larger is not what we expect.
    private static let limit = 8 << 10

    private static func text(_ path: String) -> String? {
        FileSystem.readSmall(path, limit: limit).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The start time of process `pid` in clock ticks since boot; nil when there is no such
    /// process, or it has ended and waits to be reaped (a zombie: its run is over, and in a
    /// container whose first process never reaps it may wait for good).
    static func startTicks(pid: Int32) -> UInt64? {
        text("/proc/\(pid)/stat").flatMap(parseStartTicks)
    }

    /// Field 22 of `/proc/PID/stat`, nil for a process that has ended (state `Z` or `X`). The
    /// command name (field 2) is in parentheses and may hold spaces and parentheses itself, so
    /// the fields are counted from the last `)`.
    static func parseStartTicks(_ stat: String) -> UInt64? {
        let bytes = stat.utf8
        guard let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = bytes[bytes.index(after: close)...].split(separator: UInt8(ascii: " "))
        // fields[0] is field 3 (state); field 22 is fields[19].
        guard fields.count > 19, !fields[0].elementsEqual("Z".utf8), !fields[0].elementsEqual("X".utf8) else {
            return nil
        }
        return UInt64(String(decoding: fields[19].filter { $0 > UInt8(ascii: " ") }, as: UTF8.self))
    }

    /// The kernel's boot id, new at every boot.
    static func bootID() -> String? {
        text("/proc/sys/kernel/random/boot_id").map {
            String(decoding: $0.utf8.filter { $0 > UInt8(ascii: " ") }, as: UTF8.self)
        }
    }

    /// When this boot began, Unix milliseconds (`btime` of `/proc/stat`).
    static func bootTimeMs() -> Int64? {
        guard let stat = text("/proc/stat") else { return nil }
        for line in stat.split(separator: "\n") where line.hasPrefix("btime ") {
            return Int64(line.dropFirst("btime ".count)).map { $0 * 1000 }
        }
        return nil
    }

    /// The OOM-kill counter file of this process's memory cgroup and its value, where one is
    /// readable: cgroup v2's `memory.events`, else v1's `memory.oom_control`.
    static func oomCounter(cgroupRoot: String = "/sys/fs/cgroup") -> (path: String, kills: Int)? {
        guard let cgroups = text("/proc/self/cgroup") else { return nil }
        for path in counterPaths(cgroups: cgroups, root: cgroupRoot) {
            if let kills = oomKills(at: path) { return (path, kills) }
        }
        return nil
    }

    /// The counter files `/proc/self/cgroup` points at, most likely first: the v1 memory
    /// controller's `memory.oom_control`, then the v2 group's `memory.events`.
    static func counterPaths(cgroups: String, root: String) -> [String] {
        var v1: [String] = []
        var v2: [String] = []
        for line in cgroups.utf8.split(separator: UInt8(ascii: "\n")) {
            // hierarchy-id:controllers:path
            let parts = line.split(separator: UInt8(ascii: ":"), maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { continue }
            let path = parts[2].elementsEqual("/".utf8) ? "" : String(decoding: parts[2], as: UTF8.self)
            if parts[0].elementsEqual("0".utf8) && parts[1].isEmpty {
                v2.append("\(root)\(path)/memory.events")
            } else if parts[1].split(separator: UInt8(ascii: ",")).contains(where: { $0.elementsEqual("memory".utf8) })
            {
                v1.append("\(root)/memory\(path)/memory.oom_control")
            }
        }
        return v1 + v2
    }

    /// The `oom_kill` count in a counter file; nil when it cannot be read or has none.
    static func oomKills(at path: String) -> Int? {
        text(path).flatMap(parseOOMKills)
    }

    /// The value of the `oom_kill N` line (both files have one).
    static func parseOOMKills(_ text: String) -> Int? {
        let key = Array("oom_kill ".utf8)
        for line in text.utf8.split(separator: UInt8(ascii: "\n")) where line.starts(with: key) {
            return Int(String(decoding: line.dropFirst(key.count).filter { $0 > UInt8(ascii: " ") }, as: UTF8.self))
        }
        return nil
    }
}
