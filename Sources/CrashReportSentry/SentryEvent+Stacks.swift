import CrashReportFormat

extension SentryEvent {
    /// Sentry's stack trace for one stack in call order (``CallStack``), **oldest first** (the
    /// report's are innermost first). A run of one frame repeated in a row (a recursion), or of a
    /// cycle of frames, stands once, so that the depth of a recursion does not split an issue;
    /// the frames the report left out become one frame whose function is `<N frames omitted>`,
    /// where they were, and the async frames not kept one `<N async frames not kept>`.
    ///
    /// Sentry's symbolicator moves every frame's address back by one but the first (`auto`), as
    /// return addresses want; a resume point is a function's entry and must be looked up as it
    /// is. So a stack with async frames says `instruction_addr_adjustment: none` and gives each
    /// frame the address to look up (``CrashReport/Frame/lookupAddress``: a return address
    /// already moved back); a stack without them is sent as it always was.
    static func stacktrace(_ stack: CallStack, registers: CrashReport.Registers?, in report: CrashReport)
        -> Stacktrace
    {
        let adjusted = stack.asyncCount > 0
        var out: [Frame] = []
        for line in stack.lines.reversed() {
            switch line {
            case .omitted(let count):
                out.append(Frame(function: "<\(count) frames omitted>", in_app: false))
            case .asyncOmitted(let count):
                out.append(Frame(function: "<\(count) async frame\(count == 1 ? "" : "s") not kept>", in_app: false))
            case .frame(let index, _):
                out += expanded(
                    stack.frames[index], symbols: stack.symbols[index] ?? [], adjusted: adjusted, in: report)
            case .repeats:
                break  // the cycle's frames stand once
            }
        }
        return Stacktrace(
            frames: out, registers: registers?.values.mapValues(\.hex),
            instruction_addr_adjustment: adjusted ? "none" : nil)
    }

    /// One report frame as Sentry frames: one per symbol, the real function first and the calls
    /// inlined into it after it; the bare address when there are no symbols. An async frame's
    /// function ends in ` [async]`, as Swift's backtracer marks it (its `trust` is `async`).
    private static func expanded(
        _ frame: CrashReport.Frame, symbols: [FrameSymbol], adjusted: Bool, in report: CrashReport
    ) -> [Frame] {
        let image = report.image(of: frame)
        let base = Frame(
            instruction_addr: (adjusted ? frame.lookupAddress : frame.ip).hex, image_addr: image?.base.hex,
            package: image.map { PathPrivacy.shorten($0.path) }, in_app: image.map(\.main),
            trust: frame.trust.rawValue)
        // The runtime failure's pseudo-function is the exception's value, not a frame.
        let resolved = symbols.filter { !$0.function.hasPrefix(RuntimeFrames.failurePrefix) }
        if resolved.isEmpty { return [base] }
        return resolved.reversed().map { symbol in
            var entry = base
            entry.function = symbol.function + (frame.trust == .async && !symbol.inlined ? " [async]" : "")
            // The standard library's code inlined into the app is not the app's (Sentry's culprit).
            // Nor is a dependency's code (docs/grouping.md), nor a compiler thunk.
            if entry.in_app == true,
                RuntimeFrames.isRuntime(symbol) || DependencyPaths().isDependency(symbol)
                    || CompilerThunks.isThunk(symbol.function)
            {
                entry.in_app = false
            }
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
            let stack = report.callStack(ofThread: index, symbols: symbols)
            if thread.answered, !stack.lines.isEmpty {
                stacktrace = Self.stacktrace(stack, registers: thread.registers, in: report)
            }
            return Thread(
                id: thread.id, name: threadName(thread), crashed: thread.crashed,
                current: thread.crashed || thread.id == lateThread, main: thread.main, stacktrace: stacktrace)
        }
    }

    /// The thread's name, and the Swift task it ran: `worker (task 77 "orders", priority
    /// medium)`, so that Sentry's thread list names the task.
    static func threadName(_ thread: CrashReport.CapturedThread) -> String? {
        guard let task = thread.task else { return nonEmpty(thread.name) }
        return nonEmpty(thread.name).map { "\($0) (\(task.label))" } ?? task.label
    }

    /// The `swift_task` context: the task the crashed thread ran, or in a hang the late
    /// heartbeat's thread; nil when that thread ran none.
    static func taskContext(_ report: CrashReport) -> Contexts.SwiftTask? {
        let lateThread = report.kind == .hang ? report.snapshot?.heartbeat?.threadID : nil
        let thread = report.threads.first { $0.crashed || $0.id == lateThread }
        return thread?.task.map { task in
            Contexts.SwiftTask(
                id: task.id, name: task.name, priority: task.priority,
                priority_name: task.priority.map(CrashReport.RunningTask.priorityName))
        }
    }
}
