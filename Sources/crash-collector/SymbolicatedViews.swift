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
        var report: CrashReport
        var symbolication: Symbolication
        /// The crash log (`TextRenderer`): the fatal-error message or runtime failure first.
        var text: String
    }

    /// Views kept at most; past it the oldest one made goes.
    static let capacity = 1024

    private let symbolicator: Symbolicator
    /// Where the dependencies' sources are, for the crash log's `[dependency]` marks.
    let dependencies: DependencyPaths
    private let views = Lock<(byID: [String: View], order: [String])>(([:], []))

    init(symbolicator: Symbolicator = Symbolicator(), dependencies: DependencyPaths = DependencyPaths()) {
        self.symbolicator = symbolicator
        self.dependencies = dependencies
    }

    /// The view of report `id`, kept from before or made now from `load()` (which reads and
    /// decodes the stored file, itself a few milliseconds); nil when `load` finds no report.
    func view(id: String, load: () -> CrashReport?) -> View? {
        let id = id.lowercased()
        if let kept = views.withLock({ $0.byID[id] }) { return kept }
        guard let report = load() else { return nil }
        // Made outside the lock: two first requests for one report may both make it, which
        // costs time but gives the same view.
        let view = Self.make(report, symbolication: symbolicator.symbolication(of: report), dependencies: dependencies)
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

    static func make(
        _ report: CrashReport, symbolication: Symbolication, dependencies: DependencyPaths = DependencyPaths()
    ) -> View {
        var renderer = TextRenderer(symbolication: symbolication)
        renderer.dependencies = dependencies
        return View(report: report, symbolication: symbolication, text: renderer.render(report))
    }
}
