import CrashReporterSupport

/// A report found in log text: its lines put together, or why they cannot be.
public struct LoggedReport: Sendable, Equatable {
    /// Whether the report's lines make it whole.
    public enum State: Sendable, Equatable {
        /// Every line is there with a right checksum: the report's gzip bytes, as its `.crash` file.
        case whole([UInt8])
        /// Lines are missing (their part numbers, from 1), none is damaged.
        case incomplete(missing: [Int], count: Int)
        /// A line is damaged (its checksum or payload is wrong) or two lines disagree.
        case damaged(String)
    }

    /// The report's id, as its lines name it.
    public var id: String
    /// Whole, incomplete or damaged.
    public var state: State

    /// A report found in log text, with what its lines made of it.
    public init(id: String, state: State) {
        self.id = id
        self.state = state
    }
}

/// Finds the reports that crashes wrote to standard error in log text, whatever carried it:
/// `docker logs` and `kubectl logs` output, Docker's json-file lines (`{"log":"…","stream":…}`,
/// a long line's pieces joined), CRI lines (`<time> stderr F …`, `P` pieces joined),
/// `journalctl -o cat`, a log driver's prefix before the marker, CRLF endings, other output
/// between the lines, several reports in one log.
public enum LoggedReports {
    /// The reports in `text`, in the order their first line appears.
    public static func find(in text: some Collection<UInt8>) -> [LoggedReport] {
        var assembler = Assembler()
        var unwrapper = LogUnwrapper()
        let bytes = Array(text)
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            var line = bytes[start..<end]
            while line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if let content = unwrapper.content(of: line) { assembler.take(content) }
            start = end + 1
        }
        return assembler.reports()
    }
}

/// Takes the log's lines one by one and keeps every report line by id.
private struct Assembler {
    private struct Collected {
        var count: Int?
        var parts: [Int: [UInt8]] = [:]
        var damagedParts: Set<Int> = []
        var conflict: String?
    }

    private var order: [String] = []
    private var collected: [String: Collected] = [:]

    mutating func take(_ content: ArraySlice<UInt8>) {
        var rest = content
        // A line may hold the marker more than once (two lines run together by a broken pipeline).
        while let at = firstMarker(in: rest) {
            take(line: rest[at...])
            rest = rest[(at + LoggedReportLine.marker.count)...]
        }
    }

    private mutating func take(line: ArraySlice<UInt8>) {
        let parsed: LoggedReportLine
        do throws(LoggedReportLine.Refusal) {
            parsed = try LoggedReportLine.parse(line)
        } catch {
            guard case .checksum(let id, let part) = error else { return }
            update(id) { $0.damagedParts.insert(part) }
            return
        }
        update(parsed.id) { report in
            if let count = report.count, count != parsed.count {
                report.conflict = report.conflict ?? "its lines disagree on the number of lines"
                return
            }
            report.count = parsed.count
            if let existing = report.parts[parsed.part], existing != parsed.bytes {
                report.conflict = report.conflict ?? "two different lines \(parsed.part)"
                return
            }
            report.parts[parsed.part] = parsed.bytes
        }
    }

    private mutating func update(_ id: String, _ body: (inout Collected) -> Void) {
        if collected[id] == nil {
            order.append(id)
            collected[id] = Collected()
        }
        body(&collected[id]!)
    }

    private func firstMarker(in text: ArraySlice<UInt8>) -> Int? {
        let marker = LoggedReportLine.marker
        guard text.count >= marker.count else { return nil }
        var at = text.startIndex
        while at <= text.endIndex - marker.count {
            guard let first = text[at...].firstIndex(of: marker[0]), first <= text.endIndex - marker.count else {
                return nil
            }
            if text[first..<first + marker.count].elementsEqual(marker) { return first }
            at = first + 1
        }
        return nil
    }

    /// Each report: damaged when two lines disagree or a missing line came damaged (a damaged
    /// line that also came whole is forgiven), incomplete when lines are missing, else whole.
    func reports() -> [LoggedReport] {
        order.map { id in
            let report = collected[id]!
            if let conflict = report.conflict { return LoggedReport(id: id, state: .damaged(conflict)) }
            guard let count = report.count else {
                return LoggedReport(id: id, state: .damaged("no line of it has a right checksum"))
            }
            let missing = (1...count).filter { report.parts[$0] == nil }
            if let damaged = report.damagedParts.sorted().first(where: { report.parts[$0] == nil }) {
                return LoggedReport(id: id, state: .damaged("line \(damaged) has a wrong checksum or is cut"))
            }
            if !missing.isEmpty { return LoggedReport(id: id, state: .incomplete(missing: missing, count: count)) }
            return LoggedReport(id: id, state: .whole((1...count).flatMap { report.parts[$0]! }))
        }
    }
}

/// Takes the text a log line carries out of its wrapping: Docker's json-file JSON, CRI's
/// `<time> <stream> <P|F> ` prefix; other lines as they are. Partial pieces are joined per stream.
private struct LogUnwrapper {
    private var partial: [String: [UInt8]] = [:]

    /// The content of `line`, nil while it is a piece of a longer line.
    mutating func content(of line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        if line.first == UInt8(ascii: "{"), let (log, stream) = dockerJSON(line) {
            var whole = partial.removeValue(forKey: stream) ?? []
            whole += log
            guard whole.last == UInt8(ascii: "\n") else {
                partial[stream] = whole
                return nil
            }
            whole.removeLast()
            while whole.last == UInt8(ascii: "\r") { whole.removeLast() }
            return whole[...]
        }
        if let (stream, isPartial, content) = cri(line) {
            var whole = partial.removeValue(forKey: stream) ?? []
            whole += content
            if isPartial {
                partial[stream] = whole
                return nil
            }
            return whole[...]
        }
        return line
    }

    /// `{"log":"…\n","stream":"stderr","time":"…"}`: the log text and the stream.
    private func dockerJSON(_ line: ArraySlice<UInt8>) -> ([UInt8], String)? {
        guard case .object(let members)? = try? JSON.parse(line), case .string(let log)? = members["log"] else {
            return nil
        }
        var stream = "stdout"
        if case .string(let name)? = members["stream"] { stream = name }
        return (Array(log.utf8), "docker " + stream)
    }

    /// `2026-12-04T16:10:49.123456789Z stderr F text`: the stream, whether it is a piece (`P`),
    /// and the text.
    private func cri(_ line: ArraySlice<UInt8>) -> (String, Bool, ArraySlice<UInt8>)? {
        guard let first = line.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
            let space = line.firstIndex(of: UInt8(ascii: " "))
        else { return nil }
        let timestamp = line[line.startIndex..<space]
        guard timestamp.contains(UInt8(ascii: "T")) else { return nil }
        let rest = line[(space + 1)...]
        for stream in ["stdout", "stderr"] {
            for tag in ["P", "F"] {
                let prefix = Array("\(stream) \(tag)".utf8)
                guard rest.starts(with: prefix) else { continue }
                let after = rest.dropFirst(prefix.count)
                if after.isEmpty { return ("cri " + stream, tag == "P", after) }
                guard after.first == UInt8(ascii: " ") else { return nil }
                return ("cri " + stream, tag == "P", after.dropFirst())
            }
        }
        return nil
    }
}
