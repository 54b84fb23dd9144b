import CrashReportFormat

extension SentryEvent {
    /// Sentry's frames for one stack, **oldest first** (the report's are innermost first). A run
    /// of one frame repeated in a row (a recursion), or of a cycle of frames, stands once, so that the depth of a
    /// recursion does not split an issue; the frames the report left out become one frame
    /// whose function is `<N frames omitted>`, where they were.
    static func frames(
        _ frames: [CrashReport.Frame], _ lines: [StackLine], symbols: [Int: [FrameSymbol]], in report: CrashReport
    ) -> [Frame] {
        var out: [Frame] = []
        for line in lines.reversed() {
            switch line {
            case .omitted(let count):
                out.append(Frame(function: "<\(count) frames omitted>", in_app: false))
            case .frame(let index, _):
                out += expanded(frames[index], symbols: symbols[index] ?? [], in: report)
            case .repeats:
                break  // the cycle's frames stand once
            }
        }
        return out
    }

    /// One report frame as Sentry frames: one per symbol, the real function first and the calls
    /// inlined into it after it; the bare address when there are no symbols.
    private static func expanded(_ frame: CrashReport.Frame, symbols: [FrameSymbol], in report: CrashReport)
        -> [Frame]
    {
        let image = report.image(of: frame)
        let base = Frame(
            instruction_addr: frame.ip.hex, image_addr: image?.base.hex,
            package: image.map { PathPrivacy.shorten($0.path) }, in_app: image.map(\.main),
            trust: frame.trust.rawValue)
        // The runtime failure's pseudo-function is the exception's value, not a frame.
        let resolved = symbols.filter { !$0.function.hasPrefix(RuntimeFrames.failurePrefix) }
        if resolved.isEmpty { return [base] }
        return resolved.reversed().map { symbol in
            var entry = base
            entry.function = symbol.function
            // The standard library's code inlined into the app is not the app's (Sentry's culprit).
            if entry.in_app == true, RuntimeFrames.isRuntime(symbol) { entry.in_app = false }
            if let file = symbol.file {
                let shortened = PathPrivacy.shorten(file)
                entry.abs_path = shortened
                entry.filename = fileName(of: shortened)
            }
            entry.lineno = symbol.line
            return entry
        }
    }

    /// Every captured thread with its stack. The crashed thread is `crashed` and `current`; in
    /// a hang, the thread whose heartbeat was late is `current`, so that Sentry shows it first.
    static func threads(_ report: CrashReport, symbols: ReportSymbols) -> [Thread] {
        let lateThread = report.kind == .hang ? report.snapshot?.heartbeat?.threadID : nil
        return report.threads.enumerated().map { index, thread in
            var stacktrace: Stacktrace?
            let lines = thread.stackLines
            if thread.answered, !lines.isEmpty {
                stacktrace = Stacktrace(
                    frames: frames(thread.frames, lines, symbols: symbols[thread: index], in: report),
                    registers: thread.registers?.values.mapValues(\.hex))
            }
            return Thread(
                id: thread.id, name: nonEmpty(thread.name), crashed: thread.crashed,
                current: thread.crashed || thread.id == lateThread, main: thread.main, stacktrace: stacktrace)
        }
    }

    /// The message of a snapshot or a hang: its reason, or for a hang without one the late
    /// heartbeat (`heartbeat "db" was late`).
    static func occasion(_ report: CrashReport) -> String {
        if let abnormal = report.abnormalExit {
            return "Abnormal exit (\(abnormal.exitClass.rawValue)): \(abnormal.exitClass.summary)"
        }
        if let reason = nonEmpty(report.snapshot?.reason) { return reason }
        if let heartbeat = report.snapshot?.heartbeat { return "heartbeat \"\(heartbeat.name)\" was late" }
        return report.kind.title
    }
}
