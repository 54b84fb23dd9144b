/// Renders a report as a crash log for people: the header, then for a crash the fatal-error
/// message first when there is one, the signal and the crashing thread, or for a snapshot or a
/// hang what it is (its reason, the late heartbeat); then every thread's frames (the crashing
/// thread first), the crash's registers, the breadcrumbs (with times relative to the report)
/// and the loaded images.
///
/// Every string that came from the report is printed with control characters escaped, so a
/// report cannot move the cursor or change colours in the reader's terminal.
public struct TextRenderer: Sendable {
    /// Symbols by thread and frame index (see ``ReportSymbols``).
    public var symbols: ReportSymbols
    /// The "Swift runtime failure: …" reason a symbolicator found for an -O trap, printed
    /// first when the runtime recorded no message of its own.
    public var runtimeFailure: String?
    /// Registers per line in the register table.
    public var registerColumns: Int
    /// Where the dependencies' sources are: their frames are marked `[dependency]`.
    public var dependencies: DependencyPaths
    /// Compiler thunks (`partial apply for …`, `reabstraction thunk …`) are frames of their own;
    /// when false, each is folded into the frame it forwards to, which says `(+1 thunk)`.
    public var showsThunks: Bool

    /// A renderer with `symbols` (none: raw addresses), the `-O` trap's `runtimeFailure`,
    /// `registerColumns` registers a line, `dependencies` marked, and thunks folded unless
    /// `showsThunks`.
    public init(
        symbols: ReportSymbols = ReportSymbols(), runtimeFailure: String? = nil, registerColumns: Int = 3,
        dependencies: DependencyPaths = DependencyPaths(), showsThunks: Bool = false
    ) {
        self.symbols = symbols
        self.runtimeFailure = runtimeFailure
        self.registerColumns = max(1, registerColumns)
        self.dependencies = dependencies
        self.showsThunks = showsThunks
    }

    /// The whole crash log of `report`, ending in a newline.
    public func render(_ report: CrashReport) -> String {
        var sections = [header(report)]
        if let crash = report.crash {
            if let message = crash.message {
                sections.append(Text.safe(message))
            } else if let runtimeFailure {
                sections.append(Text.safe(runtimeFailure))
            }
            sections.append(cause(crash))
        } else if let snapshot = report.snapshot {
            sections.append(snapshotHeading(report.kind, snapshot))
        } else if let abnormal = report.abnormalExit {
            sections.append("The run ended abnormally: \(abnormal.exitClass.rawValue), \(abnormal.exitClass.summary).")
        }
        sections.append(contentsOf: threads(report))
        if let crash = report.crash {
            sections.append(registers(crash.registers))
        }
        sections.append(breadcrumbs(report))
        sections.append(images(report.images))
        return sections.joined(separator: "\n\n") + "\n"
    }

    func header(_ report: CrashReport) -> String {
        let app = report.app
        var appLine = app.name.isEmpty ? "(unnamed)" : Text.safe(app.name)
        if !app.version.isEmpty { appLine += " " + Text.safe(app.version) }
        if !app.build.isEmpty { appLine += " (build \(Text.safe(app.build)))" }
        if !app.environment.isEmpty { appLine += ", environment \(Text.safe(app.environment))" }
        let os = report.os
        var osLine = [os.name, os.release, os.machine].filter { !$0.isEmpty }.map(Text.safe).joined(separator: " ")
        if !os.distribution.isEmpty { osLine += ", " + Text.safe(os.distribution) }
        return [
            "\(report.kind.title) report \(Text.safe(report.reportID))",
            Text.field("App", appLine),
            Text.field("Time", "\(Text.safe(report.timestamp)), \(Text.seconds(report.uptimeMs)) after launch"),
            Text.field("OS", osLine),
        ].joined(separator: "\n")
    }

    func cause(_ crash: CrashReport.Crash) -> String {
        let signal = crash.signal
        let addressLabel =
            switch signal.name {
            case "SIGSEGV", "SIGBUS": "Fault address"
            case "SIGILL", "SIGFPE", "SIGTRAP": "Instruction"
            default: "Address"
            }
        let thread = crash.thread
        var threadLine = "\(thread.id)"
        if !thread.name.isEmpty { threadLine += " \"\(Text.safe(thread.name))\"" }
        if thread.main { threadLine += " (main thread)" }
        return [
            Text.field(
                "Signal",
                "\(Text.safe(signal.name)) (\(signal.number)), code \(Text.safe(signal.codeName)) (\(signal.code))"),
            Text.field(addressLabel, signal.address.hex),
            Text.field("Thread", threadLine),
        ].joined(separator: "\n")
    }

    /// What a snapshot or a hang is: `Hang: heartbeat "db" of thread 4250 was 2.500s late`,
    /// then the reason.
    func snapshotHeading(_ kind: CrashReport.Kind, _ snapshot: CrashReport.Snapshot) -> String {
        var lines: [String] = []
        if let heartbeat = snapshot.heartbeat {
            lines.append(
                Text.field(
                    kind.title,
                    "heartbeat \"\(Text.safe(heartbeat.name))\" of thread \(heartbeat.threadID) was "
                        + "\(Text.seconds(heartbeat.lateMs)) late"))
            lines.append(Text.field("Reason", Text.safe(snapshot.reason)))
        } else {
            lines.append(Text.field(kind.title, Text.safe(snapshot.reason)))
        }
        return lines.joined(separator: "\n")
    }

    func registers(_ registers: CrashReport.Registers) -> String {
        let ordered = registers.ordered
        let nameWidth = ordered.map { Text.safe($0.name).count }.max() ?? 0
        let cells = ordered.map { Text.pad(Text.safe($0.name), nameWidth, right: true) + " " + $0.value.paddedHex }
        var lines = ["Registers:"]
        var start = 0
        while start < cells.count {
            let row = cells[start..<min(start + registerColumns, cells.count)]
            lines.append("  " + row.joined(separator: "   "))
            start += registerColumns
        }
        return lines.joined(separator: "\n")
    }

    func breadcrumbs(_ report: CrashReport) -> String {
        let ring = report.breadcrumbs
        var lines = ["Breadcrumbs (\(ring.items.count), ring of \(ring.capacity), \(ring.torn) torn):"]
        let times = ring.items.map { Text.relative($0.timestampMs - report.timestampMs) }
        let timeWidth = times.map(\.count).max() ?? 0
        let categoryWidth = min(ring.items.map { Text.safe($0.category).count }.max() ?? 0, 31)
        let levelWidth = CrashReport.Breadcrumb.Level.allCases.map(\.rawValue.count).max() ?? 0
        for (item, time) in zip(ring.items, times) {
            var line = "  " + Text.pad(time, timeWidth, right: true) + "  " + Text.pad(item.level.rawValue, levelWidth)
            line += "  " + Text.pad(Text.safe(item.category), categoryWidth) + "  " + Text.safe(item.message)
            let data = item.data.keys.sorted().map { "\(Text.safe($0))=\(Text.safe(item.data[$0]!))" }
            if !data.isEmpty { line += "  " + data.joined(separator: " ") }
            lines.append(Text.trimmingTrailingSpaces(line))
        }
        if ring.items.isEmpty { lines.append("  (none)") }
        return lines.joined(separator: "\n")
    }

    func images(_ images: [CrashReport.Image]) -> String {
        var lines = ["Images (\(images.count)):"]
        let sizes = images.map { String($0.size) }
        let sizeWidth = sizes.map(\.count).max() ?? 0
        let names = images.map { Text.safe($0.name) }
        let nameWidth = min(names.map(\.count).max() ?? 0, 32)
        // Build ids are validated hex; `-` when the image has none.
        let buildIDs = images.map { $0.buildID.isEmpty ? "-" : $0.buildID }
        let buildIDWidth = buildIDs.map(\.count).max() ?? 0
        for (index, image) in images.enumerated() {
            var line = "  " + image.base.paddedHex + "  " + Text.pad(sizes[index], sizeWidth, right: true)
            line += "  " + Text.pad(names[index], nameWidth) + "  " + Text.pad(buildIDs[index], buildIDWidth)
            if image.path != image.name { line += "  " + Text.safe(image.path) }
            if image.main { line += "  (main)" }
            lines.append(Text.trimmingTrailingSpaces(line))
        }
        if images.isEmpty { lines.append("  (none)") }
        return lines.joined(separator: "\n")
    }
}

/// Small text helpers for the renderer.
package enum Text {
    /// Escapes C0 and C1 control characters and DEL as `\u{..}`, so report contents cannot
    /// drive the terminal.
    package static func safe(_ string: String) -> String {
        guard string.unicodeScalars.contains(where: isControl) else { return string }
        var out = String.UnicodeScalarView()
        for scalar in string.unicodeScalars {
            if isControl(scalar) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7f...0x9f).contains(scalar.value)
    }

    package static func trimmingTrailingSpaces(_ line: String) -> String {
        var line = line
        while line.last == " " { line.removeLast() }
        return line
    }

    package static func field(_ label: String, _ value: String) -> String {
        pad(label + ":", 15) + value
    }

    package static func pad(_ string: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - string.count))
        return right ? fill + string : string + fill
    }

    /// `1.234s` from milliseconds.
    package static func seconds(_ milliseconds: Int64) -> String {
        let magnitude = milliseconds.magnitude
        let fraction = String(magnitude % 1000)
        let sign = milliseconds < 0 ? "-" : ""
        return "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)s"
    }

    /// A time relative to the crash: `-1.234s` before it, `+0.005s` after (a clock step).
    package static func relative(_ milliseconds: Int64) -> String {
        milliseconds > 0 ? "+" + seconds(milliseconds) : "-" + seconds(Int64(clamping: milliseconds.magnitude))
    }
}
