import CrashReportFormat
import CrashReporterSupport
import CrashSymbolication

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
    /// The group (`CrashSignature`, docs/grouping.md), by function names where this machine
    /// could symbolicate the report.
    var signature: String
    /// The group's readable title (`CrashSignature.title`).
    var title: String
    /// The grouping rule the signature was made by; a summary made by an older rule is made
    /// again when the collector starts.
    var rule: Int

    /// The rule ``signature`` follows today: 1 was by offsets, 2 by names, 3 by names without
    /// the standard library's code inlined into the app and with the fault's reason, 4 also
    /// without the dependencies' frames (their sources in a package checkout) and compiler thunks.
    static let currentRule = 4

    /// The summary of `report`, its signature by the names `signatures` finds.
    init(_ report: CrashReport, signatures: SignatureCache) {
        self.init(report, signature: signatures.signature(of: report))
    }

    init(_ report: CrashReport, symbols: ReportSymbols = ReportSymbols()) {
        self.init(report, signature: CrashSignature(report: report, symbols: symbols))
    }

    init(_ report: CrashReport, signature: CrashSignature) {
        id = report.reportID.lowercased()
        time = report.timestamp
        timeMs = report.timestampMs
        app = report.app.name
        version = report.app.version
        kind = report.kind.rawValue
        signal = report.crash?.signal.name ?? ""
        topFrame = Self.topFrame(of: report).map { Self.location(of: $0, in: report) } ?? "?"
        self.signature = signature.description
        title = signature.title
        rule = Self.currentRule
    }

    /// The frame a report is "at": the crash's innermost, or a hang's late heartbeat thread's.
    static func topFrame(of report: CrashReport) -> CrashReport.Frame? {
        if let crash = report.crash { return crash.frames.first }
        guard let late = report.snapshot?.heartbeat?.threadID else { return nil }
        return report.threads.first { $0.id == late }?.frames.first
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
        if case .string(let title)? = json["title"] { self.title = title } else { self.title = signature }
        if case .number(let rule)? = json["rule"], let value = rule.exactly(Int.self) {
            self.rule = value
        } else {
            self.rule = 1
        }
    }

    var json: JSONValue {
        [
            "id": .string(id), "time": .string(time), "time_ms": .number(.int(timeMs)), "app": .string(app),
            "version": .string(version), "kind": .string(kind), "signal": .string(signal),
            "top_frame": .string(topFrame),
            "signature": .string(signature), "title": .string(title), "rule": JSONValue(rule),
        ]
    }
}
