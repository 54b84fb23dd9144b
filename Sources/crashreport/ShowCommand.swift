import ArgumentParser
import CrashReportFormat
import CrashSymbolication

/// `crashreport show`: one report as a symbolicated crash log, or as JSON.
struct ShowCommand: ToolSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print one crash report.",
        discussion: """
            The report is validated against its schema version (1 to 3) first; a damaged or foreign file is refused \
            with a one-line reason. Frames are symbolicated when the binary with the same build id is on \
            this machine, or its debug file is in a --debug-dir (or CRASH_REPORTER_DEBUG_DIRS) directory. \
            A frame whose source file is in a package checkout (.build/checkouts/) or under a prefix in \
            CRASH_REPORTER_DEPENDENCY_PATHS ends in [dependency]; compiler thunks (partial apply for ..., \
            reabstraction thunk ...) are folded into the frame they forward to unless --thunks is given.
            """)

    @Flag(help: "Print the report as JSON (pretty, sorted keys).")
    var json = false

    @Flag(name: .customLong("no-symbols"), help: "Do not symbolicate.")
    var noSymbols = false

    @Flag(help: "Show compiler thunks as frames of their own instead of folding each into the frame it forwards to.")
    var thunks = false

    @OptionGroup var debug: DebugDirectoryArguments

    @OptionGroup var target: ReportArguments

    func run(environment: [String: String], output: inout some TextOutputStream) throws {
        let report = try target.decoded(environment: environment)
        if json {
            output.write(try JSONRenderer().render(report))
            return
        }
        let symbolication = noSymbols ? nil : try debug.symbolication(of: report, environment: environment)
        let renderer = TextRenderer(
            symbols: symbolication?.symbols ?? ReportSymbols(), runtimeFailure: symbolication?.runtimeFailure,
            dependencies: DependencyPaths(environment: environment), showsThunks: thunks)
        output.write(renderer.render(report))
    }
}
