import CrashReportFormat
import CrashReporterSupport
import CrashSymbolication

/// Stored reports as people read them: symbolicated with the binaries on the collector's own
/// machine (`Symbolicator`: only an image whose file is at the report's path with the same
/// build id, `~` being the collector's `$HOME`), as `crashreport show` does.
///
/// Symbolicating takes tens of milliseconds the first time a binary is parsed, so each
/// report's view is made once and kept by report id. A stored report never changes (a second
/// upload of its id is a duplicate), so a kept view never goes stale, except that a binary put
/// in place later is not used for a report already viewed until the collector restarts.
final class SymbolicatedViews: Sendable {
    /// One report, symbolicated.
    struct View: Sendable {
        /// The crash log (`TextRenderer`): the fatal-error message or runtime failure first.
        var text: String
        /// The function of the innermost symbolicated frame in the main executable (else in
        /// any image), e.g. `crashBySegfault()`: of the crash, or of a hang's late heartbeat's
        /// thread; nil when nothing could be symbolicated, and for a snapshot.
        var crashedIn: String?
    }

    /// Views kept at most; past it the oldest one made goes.
    static let capacity = 1024

    private let symbolicator: Symbolicator
    private let views = Lock<(byID: [String: View], order: [String])>(([:], []))

    init(symbolicator: Symbolicator = Symbolicator()) {
        self.symbolicator = symbolicator
    }

    /// The view of report `id`, kept from before or made now from `load()` (which reads and
    /// decodes the stored file, itself a few milliseconds); nil when `load` finds no report.
    func view(id: String, load: () -> CrashReport?) -> View? {
        let id = id.lowercased()
        if let kept = views.withLock({ $0.byID[id] }) { return kept }
        guard let report = load() else { return nil }
        // Made outside the lock: two first requests for one report may both make it, which
        // costs time but gives the same view.
        let view = Self.make(report, symbolication: symbolicator.symbolication(of: report))
        views.withLock { state in
            guard state.byID[id] == nil else { return }
            if state.order.count >= Self.capacity {
                state.byID[state.order.removeFirst()] = nil
            }
            state.byID[id] = view
            state.order.append(id)
        }
        return view
    }

    static func make(_ report: CrashReport, symbolication: Symbolication) -> View {
        let text = TextRenderer(symbolication: symbolication).render(report)
        return View(text: text, crashedIn: crashedIn(report, symbols: symbolication.symbols))
    }

    /// The stack a report is "in" (the crash's, a hang's late heartbeat thread's) and its
    /// innermost symbolicated function, preferring the main executable's.
    static func crashedIn(_ report: CrashReport, symbols: ReportSymbols) -> String? {
        let frames: [CrashReport.Frame]
        let stackSymbols: [Int: [FrameSymbol]]
        if let crash = report.crash {
            (frames, stackSymbols) = (crash.frames, symbols.crash)
        } else if let late = report.snapshot?.heartbeat?.threadID,
            let index = report.threads.firstIndex(where: { $0.id == late })
        {
            (frames, stackSymbols) = (report.threads[index].frames, symbols[thread: index])
        } else {
            return nil
        }
        let inMain = frames.indices.filter { report.image(of: frames[$0])?.main == true }
        return (inMain + frames.indices).lazy.compactMap { stackSymbols[$0]?.last?.function }.first
    }
}
