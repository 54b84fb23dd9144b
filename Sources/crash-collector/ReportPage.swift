import CrashReportFormat
import CrashReporterSupport
import CrashSymbolication

/// `GET /reports/<id>`: one report, the crash first (its message, signal and the crashing
/// thread's frames), then the other threads, the breadcrumbs as a timeline before the crash,
/// and the images, folded. A hang shows its late heartbeat's thread where a crash shows the
/// crashing one; a snapshot its reason, then every thread.
enum ReportPage {
    /// How the page shows frames.
    struct Options: Sendable {
        /// Where the dependencies' sources are: their frames are not highlighted.
        var dependencies = DependencyPaths()
        /// Compiler thunks are rows of their own (`?thunks=shown`); by default each is folded
        /// into the frame it forwards to.
        var showsThunks = false
    }

    static func render(_ report: CrashReport, symbolication: Symbolication, options: Options = Options()) -> String {
        let symbols = symbolication.symbols
        let signature = CrashSignature(report: report, symbols: symbols)
        let id = HTMLPage.escape(report.reportID.lowercased())
        var html = "<h1>\(HTMLPage.kindBadge(report.kind.rawValue)) <span class=\"group-title\">"
        html += "\(HTMLPage.escape(signature.title))</span></h1>\n"
        html += "<p class=\"muted\">\(HTMLPage.escape(report.app.name)) \(HTMLPage.escape(report.app.version))"
        html += " · \(HTMLPage.time(report.timestamp)) · <span class=\"mono\">\(id)</span> · "
        html += "<a href=\"/groups/\(CrashGroup.key(of: signature.description))\">group</a> · "
        html += "<a href=\"/reports/\(id)?format=text\">text</a> · <a href=\"/reports/\(id)?format=json\">JSON</a> · "
        html +=
            options.showsThunks
            ? "<a class=\"toggle\" href=\"/reports/\(id)\">fold compiler thunks</a></p>\n"
            : "<a class=\"toggle\" href=\"/reports/\(id)?thunks=shown\">show compiler thunks</a></p>\n"
        var shownThread: Int?
        if let crash = report.crash {
            html += "<h2>The crash</h2>\n"
            if let message = crash.message.flatMap({ $0.isEmpty ? nil : $0 }) ?? symbolication.runtimeFailure {
                html += "<div class=\"message\">\(HTMLPage.escape(message))</div>\n"
            }
            let signal = crash.signal
            html += "<p><strong>\(HTMLPage.escape(signal.name))</strong> (\(HTMLPage.escape(signal.codeName)))"
            html += " at <span class=\"mono\">\(signal.address.hex)</span> on thread \(crash.thread.id)"
            html += crash.thread.name.isEmpty ? "" : " “\(HTMLPage.escape(crash.thread.name))”"
            shownThread = report.threads.firstIndex { $0.crashed }
            if let task = shownThread.flatMap({ report.threads[$0].task }) {
                html += ", \(HTMLPage.escape(task.label))"
            }
            html += "</p>\n" + StackTable.render(crash.callStack(in: report, symbols: symbols), in: report, options)
        } else if let abnormal = report.abnormalExit {
            html += "<h2>The abnormal exit</h2>\n<div class=\"message\">\(abnormal.exitClass.rawValue): "
            html += "\(HTMLPage.escape(abnormal.exitClass.summary))</div>\n"
        } else if let snapshot = report.snapshot {
            html += "<h2>\(report.kind == .hang ? "The hang" : "The snapshot")</h2>\n"
            if !snapshot.reason.isEmpty { html += "<div class=\"message\">\(HTMLPage.escape(snapshot.reason))</div>\n" }
            if let heartbeat = snapshot.heartbeat,
                let index = report.threads.firstIndex(where: { $0.id == heartbeat.threadID })
            {
                html += "<p>Heartbeat <strong>\(HTMLPage.escape(heartbeat.name))</strong> was \(heartbeat.lateMs) ms"
                html += " late on thread \(heartbeat.threadID)"
                if let task = report.threads[index].task { html += ", \(HTMLPage.escape(task.label))" }
                html +=
                    ".</p>\n"
                    + StackTable.render(report.callStack(ofThread: index, symbols: symbols), in: report, options)
                shownThread = index
            }
        }
        html += threads(report, except: shownThread, symbols: symbols, options)
        html += breadcrumbs(report)
        html += images(report)
        html += notes(symbolication.notes)
        return HTMLPage.document(title: signature.title, body: html)
    }

    /// What symbolication passed over or could not reach (debug files, debuginfod servers), folded.
    static func notes(_ notes: [String]) -> String {
        guard !notes.isEmpty else { return "" }
        var html = "<details class=\"notes\"><summary>Symbolication notes (\(notes.count))</summary>\n<ul>\n"
        for note in notes { html += "<li class=\"mono\">\(HTMLPage.escape(note))</li>\n" }
        return html + "</ul></details>\n"
    }

    /// Every thread but the one shown above, each folded under its name.
    static func threads(
        _ report: CrashReport, except shown: Int?, symbols: ReportSymbols, _ options: Options
    ) -> String {
        let others = report.threads.indices.filter { $0 != shown }
        guard !others.isEmpty else { return "" }
        var html = "<h2>\(shown == nil ? "Threads" : "Other threads") (\(others.count))</h2>\n"
        for index in others {
            let thread = report.threads[index]
            var title = "Thread \(thread.id)"
            if !thread.name.isEmpty { title += " “\(thread.name)”" }
            if thread.main { title += " (main thread)" }
            if let task = thread.task { title += ", " + task.label }
            html += "<details class=\"thread\"><summary>\(HTMLPage.escape(title)), "
            guard thread.answered else {
                html += HTMLPage.escape(TextRenderer.noAnswer(thread.unwindError ?? "")) + "</summary></details>\n"
                continue
            }
            let stack = report.callStack(ofThread: index, symbols: symbols)
            html +=
                "\(thread.frames.count) frames\(stack.asyncCount > 0 ? ", \(stack.asyncCount) async" : "")</summary>\n"
            html += StackTable.render(stack, in: report, options)
            html += "</details>\n"
        }
        return html
    }

    /// The breadcrumbs, oldest first, each at its time before the crash, the crash last.
    static func breadcrumbs(_ report: CrashReport) -> String {
        let items = report.breadcrumbs.items
        var html = "<h2>Breadcrumbs (\(items.count))</h2>\n"
        guard !items.isEmpty else { return html + "<p class=\"muted\">None.</p>\n" }
        html += "<ol class=\"timeline\">\n"
        for item in items {
            html += "<li><span class=\"t\">\(Text.relative(item.timestampMs - report.timestampMs))</span> "
            html += "<span class=\"muted\">\(HTMLPage.escape(item.level.rawValue)) · "
            html += "\(HTMLPage.escape(item.category))</span> \(HTMLPage.escape(item.message))"
            let data = item.data.keys.sorted().map { "\($0)=\(item.data[$0] ?? "")" }
            if !data.isEmpty {
                html += " <span class=\"mono muted\">\(HTMLPage.escape(data.joined(separator: " ")))</span>"
            }
            html += "</li>\n"
        }
        html += "<li class=\"crash\"><span class=\"t\">0.000s</span> \(HTMLPage.escape(report.kind.title))</li>\n"
        return html + "</ol>\n"
    }

    /// The loaded images, folded.
    static func images(_ report: CrashReport) -> String {
        var html = "<details class=\"images\"><summary>Images (\(report.images.count))</summary>\n"
        html += "<table class=\"stack-on-phone\"><thead><tr><th>Name</th><th>Base</th><th>Build id</th><th>Path</th>"
        html += "</tr></thead><tbody>\n"
        for image in report.images {
            html += "<tr><td data-label=\"Name\">\(HTMLPage.escape(image.name))\(image.main ? " (main)" : "")</td>"
            html += "<td data-label=\"Base\" class=\"mono\">\(image.base.hex)</td>"
            html += "<td data-label=\"Build id\" class=\"mono\">\(HTMLPage.escape(image.buildID))</td>"
            html += "<td data-label=\"Path\" class=\"mono\">\(HTMLPage.escape(image.path))</td></tr>\n"
        }
        return html + "</tbody></table></details>\n"
    }
}
