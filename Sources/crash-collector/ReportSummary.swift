import CrashReportFormat
import CrashReporterSupport

/// What the collector lists about one stored report, and the crash group it belongs to.
struct ReportSummary: Sendable, Equatable {
    var id: String
    /// The crash's time, ISO-8601 UTC, and the same in Unix milliseconds.
    var time: String
    var timeMs: Int64
    var app: String
    var version: String
    /// `crash`, `snapshot` or `hang`.
    var kind: String
    /// The signal's name; empty for a snapshot or a hang.
    var signal: String
    /// The innermost frame as `image+0xoffset`: the crash's, or in a hang the late heartbeat's
    /// thread's; `?` when there is none (a snapshot).
    var topFrame: String
    var signature: String

    init(_ report: CrashReport) {
        id = report.reportID.lowercased()
        time = report.timestamp
        timeMs = report.timestampMs
        app = report.app.name
        version = report.app.version
        kind = report.kind.rawValue
        signal = report.crash?.signal.name ?? ""
        topFrame = Self.topFrame(of: report).map { Self.location(of: $0, in: report) } ?? "?"
        signature = Self.signature(of: report)
    }

    /// The frame a report is "at": the crash's innermost, or a hang's late heartbeat thread's.
    static func topFrame(of report: CrashReport) -> CrashReport.Frame? {
        if let crash = report.crash { return crash.frames.first }
        guard let late = report.snapshot?.heartbeat?.threadID else { return nil }
        return report.threads.first { $0.id == late }?.frames.first
    }

    /// The crash group, by the rule `crashreport stats` uses (`CrashSignature`): the signal and
    /// the innermost frames of the main executable as `image+0xoffset` (offsets, unlike
    /// addresses, do not move with ASLR).
    static func signature(of report: CrashReport) -> String {
        CrashSignature(report: report).description
    }

    /// `image+0xoffset` of a frame's lookup address, or `???` outside every image.
    static func location(of frame: CrashReport.Frame, in report: CrashReport) -> String {
        let address = frame.lookupAddress
        if let image = report.image(of: frame), let offset = image.offset(of: address) {
            return "\(image.name)+0x\(String(offset, radix: 16))"
        }
        return "???"
    }

    /// Reads back what ``json`` wrote; nil for anything else.
    init?(json: JSONValue) {
        guard case .string(let id)? = json["id"], UUIDBytes.isCanonical(id), case .string(let time)? = json["time"],
            case .number(let number)? = json["time_ms"], let timeMs = number.exactly(Int64.self),
            case .string(let app)? = json["app"],
            case .string(let version)? = json["version"], case .string(let signal)? = json["signal"],
            case .string(let topFrame)? = json["top_frame"], case .string(let signature)? = json["signature"]
        else { return nil }
        self.id = id
        self.time = time
        self.timeMs = timeMs
        self.app = app
        self.version = version
        // Summaries indexed before reports had a kind are all crashes.
        if case .string(let kind)? = json["kind"] {
            self.kind = kind
        } else {
            self.kind = CrashReport.Kind.crash.rawValue
        }
        self.signal = signal
        self.topFrame = topFrame
        self.signature = signature
    }

    var json: JSONValue {
        [
            "id": .string(id), "time": .string(time), "time_ms": .number(.int(timeMs)), "app": .string(app),
            "version": .string(version), "kind": .string(kind), "signal": .string(signal),
            "top_frame": .string(topFrame),
            "signature": .string(signature),
        ]
    }
}

/// Reports sharing a signature.
struct CrashGroup: Sendable, Equatable {
    var signature: String
    var reports: [ReportSummary]

    var count: Int { reports.count }
    /// `crash`, `snapshot` or `hang`: one signature never spans two kinds.
    var kind: String { reports.first?.kind ?? CrashReport.Kind.crash.rawValue }
    var firstSeen: ReportSummary? { reports.min { $0.timeMs < $1.timeMs } }
    var lastSeen: ReportSummary? { reports.max { $0.timeMs < $1.timeMs } }
    /// The app versions that crashed this way, sorted.
    var versions: [String] { Set(reports.map(\.version)).sorted() }
    var apps: [String] { Set(reports.map(\.app)).sorted() }

    /// Groups by signature, the most frequent first (then the most recent).
    static func groups(of summaries: [ReportSummary]) -> [CrashGroup] {
        Dictionary(grouping: summaries, by: \.signature)
            .map { CrashGroup(signature: $0.key, reports: $0.value.sorted { $0.timeMs > $1.timeMs }) }
            .sorted {
                $0.count != $1.count
                    ? $0.count > $1.count
                    : ($0.lastSeen?.timeMs ?? 0, $0.signature) > ($1.lastSeen?.timeMs ?? 0, $1.signature)
            }
    }
}
