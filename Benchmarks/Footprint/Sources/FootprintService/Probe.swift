#if canImport(Glibc)
    import Glibc
#endif

/// What a footprint binary reports on standard output, one `key value` line each, for the
/// `footprint` runner: monotonic times of its milestones (the runner subtracts the time it
/// spawned the process), then, once idle, the shared libraries it has mapped and its RSS.
public enum Probe {
    /// `mark NAME NANOSECONDS` with CLOCK_MONOTONIC now.
    public static func mark(_ name: String) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        emit("mark \(name) \(Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))")
    }

    /// Waits until start-up work on other threads has settled (the reporter's delivery pass), then
    /// writes `library PATH` for each mapped shared object, its memory (`rss`, `rss_file`: pages
    /// mapped from files, code and read-only data, shared with every process that maps them;
    /// `rss_anon`; `private_dirty`: the pages only this process has and wrote, which no other
    /// process shares and the kernel cannot drop; all KiB) and `done`.
    static func reportAfterIdle() {
        usleep(300_000)
        for library in mappedLibraries() { emit("library \(library)") }
        let status = fields(of: "/proc/self/status")
        emit("rss \(status["VmRSS"] ?? 0)")
        emit("rss_file \(status["RssFile"] ?? 0)")
        emit("rss_anon \(status["RssAnon"] ?? 0)")
        emit("private_dirty \(fields(of: "/proc/self/smaps_rollup")["Private_Dirty"] ?? 0)")
        emit("done")
    }

    private static func emit(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { bytes in _ = write(1, bytes.baseAddress, bytes.count) }
    }

    /// Paths of the ELF shared objects in /proc/self/maps (the executable itself excluded).
    private static func mappedLibraries() -> [String] {
        var seen = Set<String>()
        for line in readFile("/proc/self/maps").split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = String(line[slash...])
            if path.contains(".so") { seen.insert(path) }
        }
        return seen.sorted()
    }

    /// The `Name: value kB` lines of a /proc file, in KiB by name.
    private static func fields(of path: String) -> [String: Int] {
        var found: [String: Int] = [:]
        for line in readFile(path).split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            let value = parts.count == 2 ? parts[1].split(whereSeparator: { $0 == " " || $0 == "\t" }).first : nil
            guard let value, let kib = Int(value) else { continue }
            found[String(parts[0])] = kib
        }
        return found
    }

    private static func readFile(_ path: String) -> String {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
