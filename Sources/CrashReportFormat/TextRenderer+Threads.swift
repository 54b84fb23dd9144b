extension TextRenderer {
    /// The thread count, then one section per thread: the crashing one first, then the others
    /// in the report's order (by id).
    func threads(_ report: CrashReport) -> [String] {
        let shown = report.threads.count
        var count = "\(shown)"
        if report.threadsTotal != shown || report.threadsOmitted > 0 {
            count += " of \(report.threadsTotal)"
            if report.threadsOmitted > 0 { count += ", \(report.threadsOmitted) beyond the report's limit left out" }
        }
        var sections = ["Threads (\(count)):" + (shown == 0 ? "\n  (none)" : "")]
        for index in report.threads.indices {
            sections.append(
                thread(report.threads[index], report.callStack(ofThread: index, symbols: symbols), in: report))
        }
        return sections
    }

    /// `Thread 4242 "worker" (main thread, crashed), task 77 "orders", priority medium, 3 frames,
    /// 2 async:` and the frames in call order (see ``CallStack``), or one line for a thread that
    /// did not answer.
    func thread(_ thread: CrashReport.CapturedThread, _ stack: CallStack, in report: CrashReport) -> String {
        var title = "Thread \(thread.id)"
        if !thread.name.isEmpty { title += " \"\(Text.safe(thread.name))\"" }
        let notes = (thread.main ? ["main thread"] : []) + (thread.crashed ? ["crashed"] : [])
        if !notes.isEmpty { title += " (\(notes.joined(separator: ", ")))" }
        if let task = thread.task { title += ", " + Text.safe(task.label) }
        guard thread.answered else { return title + ": " + Self.noAnswer(thread.unwindError ?? "") }
        title += ", \(thread.frames.count) frame\(thread.frames.count == 1 ? "" : "s")"
        if stack.asyncCount > 0 { title += ", \(stack.asyncCount) async" }
        var lines = [title + ":"]
        lines += self.stack(stack, in: report)
        if thread.framesTruncated {
            lines.append("  ... stack truncated: the thread had more frames than the report keeps")
        }
        if let error = thread.unwindError {
            lines.append("  unwinding stopped early: \(Text.safe(error))")
        }
        return lines.joined(separator: "\n")
    }

    /// Why a thread has no stack, for its one line.
    package static func noAnswer(_ reason: String) -> String {
        switch reason {
        case "signal_blocked": "did not answer: it blocks the capture signal"
        case "stopped": "did not answer: it was stopped (state T)"
        case "exited": "did not answer: it ended before it was asked"
        default: "did not answer the capture signal in time"
        }
    }

    /// The frame lines: a run of one repeated frame is one line that says how many times, the
    /// frames left out are one line; an async frame's function is marked `[async]`, as Swift's
    /// own backtracer marks it, and one without a name ends in `[async]`; a dependency's
    /// function ends in `[dependency]`; a compiler thunk is folded into the frame it forwards
    /// to, which ends in `(+1 thunk)`, unless ``showsThunks``.
    func stack(_ stack: CallStack, in report: CrashReport) -> [String] {
        let frames = stack.frames
        let symbols = stack.symbols
        if frames.isEmpty && stack.lines.isEmpty { return ["  (none)"] }
        let indexWidth = String(max(frames.count - 1, 0)).count
        let names = frames.map { report.image(of: $0).map { Text.safe($0.name) } ?? "???" }
        let nameWidth = min(names.map(\.count).max() ?? 0, 32)
        let continuation = String(repeating: " ", count: 2 + indexWidth + 2 + nameWidth + 2 + 18)
        let (stackLines, folded) = showsThunks ? (stack.lines, [:]) : stack.foldingThunks()
        var lines: [String] = []
        for stackLine in stackLines {
            guard case .frame(let index, let count) = stackLine else {
                if case .omitted(let count) = stackLine { lines.append("  ... \(count) frames omitted ...") }
                if case .asyncOmitted(let count) = stackLine {
                    lines.append("  ... \(count) more async frame\(count == 1 ? "" : "s") not kept ...")
                }
                if case .repeats(let length, let times) = stackLine {
                    lines.append("  ... the \(length) frames above repeated \(times) more times ...")
                }
                continue
            }
            let frame = frames[index]
            let image = report.image(of: frame)
            let location: String
            if let image, frame.ip >= image.base {
                location = "\(names[index])+0x\(String(frame.ip.rawValue - image.base.rawValue, radix: 16))"
            } else {
                location = "???"
            }
            var line =
                "  " + Text.pad(String(index), indexWidth, right: true) + "  " + Text.pad(names[index], nameWidth)
            line += "  " + frame.ip.paddedHex + "  " + location
            var repeated = count > 1 ? "  (repeated \(count) times)" : ""
            if let thunks = folded[index] { repeated += "  (+\(thunks) thunk\(thunks == 1 ? "" : "s"))" }
            let resolved = symbols[index] ?? []
            if resolved.isEmpty {
                lines.append(line + (stack.isAsync(index) ? "  [async]" : "") + repeated)
                continue
            }
            for (position, symbol) in resolved.enumerated() {
                var shown = symbol
                if stack.isAsync(index), !symbol.inlined {
                    // A resume point is the function's entry: its offset is always 0.
                    shown.function += " [async]"
                    shown.offset = nil
                }
                var text = (symbol.inlined ? "[inlined] " : "") + Text.safe(shown.text)
                if dependencies.isDependency(symbol) { text += " [dependency]" }
                lines.append((position == 0 ? line + "  " : continuation + "  ") + text)
            }
            lines[lines.count - 1] += repeated
        }
        return lines
    }
}
