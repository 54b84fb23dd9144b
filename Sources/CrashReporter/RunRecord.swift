import CCrashReporter

/// One process's run record, in a slot `<state>/runs/slot-<n>.run` (docs/runs.md): written by
/// `start`, its first line overwritten in place when the run ends (run_record.c), read and
/// marked settled by a later launch. Text, one `key value` a line after the state line:
///
/// ```
/// running ------------------------------------
/// pid 4242
/// start_ticks 81234
/// started_ms 1795958405123
/// boot_id 0f3c…
/// oom_counter /sys/fs/cgroup/memory/orders/memory.oom_control
/// oom_kills 0
/// app orders
/// version 1.4.2
/// build 7
/// environment production
/// ```
///
/// The boot id and pid stay on the machine: they tell a later launch whether the process is
/// still alive and whether the machine restarted, and are never sent.
struct RunRecord: Equatable, Sendable {
    /// The state line: how the run has ended so far.
    enum State: Equatable, Sendable {
        case running
        case exited
        /// The crash handler's report id; nil when it could not write one.
        case crashed(reportID: String?)
    }

    var state: State = .running
    var pid: Int32
    /// The process's start time in clock ticks since boot (`/proc/PID/stat` field 22): a pid
    /// recycled by another process has another.
    var startTicks: UInt64
    var startedMs: Int64
    var bootID: String
    /// The memory cgroup's OOM-kill counter file and its value at start, where one is readable.
    var oomCounterPath: String?
    var oomKills: Int?
    var app: String
    var version: String
    var build: String
    var environment: String

    /// The record's text; the state line first, as wide as run_record.c overwrites it.
    var text: String {
        var lines = [Self.stateLine(state)]
        lines.append("pid \(pid)")
        lines.append("start_ticks \(startTicks)")
        lines.append("started_ms \(startedMs)")
        lines.append("boot_id \(Self.oneLine(bootID))")
        if let oomCounterPath, let oomKills {
            lines.append("oom_counter \(Self.oneLine(oomCounterPath))")
            lines.append("oom_kills \(oomKills)")
        }
        lines.append("app \(Self.oneLine(app))")
        lines.append("version \(Self.oneLine(version))")
        lines.append("build \(Self.oneLine(build))")
        lines.append("environment \(Self.oneLine(environment))")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The state line as the C side writes it: the state padded to 8 bytes, the report id or
    /// 36 dashes, a newline (`SCR_RUN_STATE_LINE` bytes with it).
    static func stateLine(_ state: State) -> String {
        let (word, id): (String, String?) =
            switch state {
            case .running: ("running", nil)
            case .exited: ("exited", nil)
            case .crashed(let reportID): ("crashed", reportID)
            }
        let padded = word + String(repeating: " ", count: 8 - word.utf8.count)
        let idField = id.flatMap { $0.utf8.count == 36 ? $0 : nil } ?? String(repeating: "-", count: 36)
        return padded + idField
    }

    /// A record's text read back; nil when it is not one (damaged, or half written by a start
    /// that was killed mid-way).
    init?(parsing text: String) {
        let width = Int(SCR_RUN_STATE_LINE) - 1
        let utf8 = Array(text.utf8)
        guard utf8.count > width, utf8[width] == UInt8(ascii: "\n") else { return nil }
        let word = String(decoding: utf8[0..<8].prefix { $0 != UInt8(ascii: " ") }, as: UTF8.self)
        let id = String(decoding: utf8[8..<width], as: UTF8.self)
        switch word {
        case "running": state = .running
        case "exited": state = .exited
        case "crashed": state = .crashed(reportID: id.utf8.allSatisfy { $0 == UInt8(ascii: "-") } ? nil : id)
        default: return nil
        }
        let values = KeyValueLines(String(decoding: utf8[(width + 1)...], as: UTF8.self))
        guard let pid = values["pid"].flatMap({ Int32($0) }), let ticks = values["start_ticks"].flatMap({ UInt64($0) }),
            let started = values["started_ms"].flatMap({ Int64($0) }), let boot = values["boot_id"],
            let app = values["app"], let version = values["version"], let build = values["build"],
            let environment = values["environment"]
        else { return nil }
        self.pid = pid
        self.startTicks = ticks
        self.startedMs = started
        self.bootID = boot
        self.oomCounterPath = values["oom_counter"]
        self.oomKills = values["oom_kills"].flatMap { Int($0) }
        self.app = app
        self.version = version
        self.build = build
        self.environment = environment
    }

    init(
        pid: Int32, startTicks: UInt64, startedMs: Int64, bootID: String, oomCounterPath: String?, oomKills: Int?,
        app: String, version: String, build: String, environment: String
    ) {
        self.pid = pid
        self.startTicks = startTicks
        self.startedMs = startedMs
        self.bootID = bootID
        self.oomCounterPath = oomCounterPath
        self.oomKills = oomKills
        self.app = app
        self.version = version
        self.build = build
        self.environment = environment
    }

    /// A value on one line: a newline in an app name must not start a key of its own.
    private static func oneLine(_ value: String) -> String {
        let breaks: (UInt8) -> Bool = { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
        guard value.utf8.contains(where: breaks) else { return value }
        return String(decoding: value.utf8.map { breaks($0) ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }
}

/// `key value` lines (the value is the rest of the line after the first space), as the run
/// files keep them. Plain `String` keys: their dictionary is one the process has made already,
/// so reading a record costs no new generic metadata at start.
struct KeyValueLines {
    private var values: [String: String] = [:]

    init(_ text: String) {
        // Byte-wise: splitting by Character costs grapheme breaking for nothing here.
        for line in text.utf8.split(separator: UInt8(ascii: "\n")) {
            guard let space = line.firstIndex(of: UInt8(ascii: " ")) else { continue }
            values[String(decoding: line[..<space], as: UTF8.self)] =
                String(decoding: line[line.index(after: space)...], as: UTF8.self)
        }
    }

    subscript(key: String) -> String? { values[key] }
}
