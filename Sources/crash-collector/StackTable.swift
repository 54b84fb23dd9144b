import CrashReportFormat

/// One stack as an HTML table, folded as `crashreport show` folds it (`StackLine`): a frame
/// repeated in a row is one row with its count, a repeated cycle one row after its frames,
/// frames the report left out one row. Each symbol of a frame (a call inlined into it, then
/// the function itself) is a row of its own. Frames of the service's own code (the main
/// executable, not the runtime: `RuntimeFrames`, not a dependency's source: `DependencyPaths`,
/// not a compiler thunk) are `in-app` and highlighted. A compiler thunk is folded into the frame
/// it forwards to, which says `+1 thunk`, unless the options show thunks. The stack is in call
/// order (`CallStack`): the functions awaiting an async function come after its frame, each
/// marked `async`.
enum StackTable {
    static func render(_ stack: CallStack, in report: CrashReport, _ options: ReportPage.Options) -> String {
        let frames = stack.frames
        let (lines, folded) = options.showsThunks ? (stack.lines, [:]) : stack.foldingThunks()
        let symbols = stack.symbols
        guard !lines.isEmpty else { return "<p class=\"muted\">No frames.</p>\n" }
        var html = "<table class=\"stack stack-on-phone\"><thead><tr><th>#</th><th>Function</th><th>Source</th>"
        html += "<th>Image</th></tr></thead><tbody>\n"
        for line in lines {
            switch line {
            case .omitted(let count):
                html += marker("\(count) frames omitted")
            case .asyncOmitted(let count):
                html += marker("\(count) more async frame\(count == 1 ? "" : "s") not kept")
            case .repeats(let length, let times):
                html += marker("the \(length) frames above repeated \(times) more times")
            case .frame(let index, let count):
                html += rows(
                    index: index, frame: frames[index], count: count, symbols: symbols[index] ?? [],
                    async: stack.isAsync(index), thunks: folded[index] ?? 0, dependencies: options.dependencies,
                    report)
            }
        }
        return html + "</tbody></table>\n"
    }

    static func marker(_ text: String) -> String {
        "<tr class=\"marker\"><td></td><td colspan=\"3\">… \(HTMLPage.escape(text)) …</td></tr>\n"
    }

    static func rows(
        index: Int, frame: CrashReport.Frame, count: Int, symbols: [FrameSymbol], async: Bool, thunks: Int,
        dependencies: DependencyPaths, _ report: CrashReport
    ) -> String {
        let image = report.image(of: frame)
        let place = image.flatMap { image in image.offset(of: frame.lookupAddress).map { (image.name, $0) } }
        let location = place.map { "\($0.0)+0x\(String($0.1, radix: 16))" } ?? "???"
        var repeated = count > 1 ? " <span class=\"repeat\">repeated \(count) times</span>" : ""
        // A resume point of an awaiting function, as Swift's backtracer marks it.
        if async { repeated = " <span class=\"async\">async</span>" + repeated }
        if thunks > 0 { repeated += " <span class=\"thunk\">+\(thunks) thunk\(thunks == 1 ? "" : "s")</span>" }
        // The pseudo-frame of a -O trap is the message's business, not a frame.
        let resolved = symbols.filter { !$0.function.hasPrefix(RuntimeFrames.failurePrefix) }
        guard !resolved.isEmpty else {
            let inApp = image?.main == true
            return row(
                index: String(index), function: "<span class=\"mono\">\(HTMLPage.escape(location))</span>" + repeated,
                source: "", image: image?.name ?? "???", inApp: inApp)
        }
        var html = ""
        for (position, symbol) in resolved.enumerated() {
            let inApp =
                image?.main == true && !RuntimeFrames.isRuntime(symbol) && !dependencies.isDependency(symbol)
                && !CompilerThunks.isThunk(symbol.function)
            var function = "<span class=\"fn\">\(HTMLPage.escape(symbol.function))</span>"
            if symbol.inlined { function += " <span class=\"muted\">inlined</span>" }
            if position == resolved.count - 1 { function += repeated }
            html += row(
                index: position == 0 ? String(index) : "", function: function, source: source(symbol),
                image: location, inApp: inApp)
        }
        return html
    }

    static func row(index: String, function: String, source: String, image: String, inApp: Bool) -> String {
        var html = "<tr class=\"frame\(inApp ? " in-app" : "")\"><td class=\"mono index\">\(index)</td>"
        html += "<td data-label=\"Function\">\(function)</td>"
        html += source.isEmpty ? "<td></td>" : "<td data-label=\"Source\" class=\"mono\">\(source)</td>"
        html += "<td data-label=\"Image\" class=\"mono muted\">\(HTMLPage.escape(image))</td></tr>\n"
        return html
    }

    /// `Crashes.swift:12`, with the whole path in its tooltip; empty when unknown.
    static func source(_ symbol: FrameSymbol) -> String {
        guard let file = symbol.file else { return "" }
        let name = file.split(separator: "/").last.map(String.init) ?? file
        let line = symbol.line.map { ":\($0)" } ?? ""
        return "<span title=\"\(HTMLPage.escape(file))\">\(HTMLPage.escape(name + line))</span>"
    }
}
