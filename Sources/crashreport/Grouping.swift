import CrashReportFormat
import CrashSymbolication

/// The group a report belongs to, by the rule the collector and the Sentry event use
/// (`CrashSignature`, docs/grouping.md): by function names where this machine has the binaries
/// with the report's build ids, by `image+0xoffset` otherwise.
enum Grouping {
    static func signature(of report: CrashReport, symbolicator: Symbolicator = Symbolicator()) -> CrashSignature {
        CrashSignature(report: report, symbols: symbolicator.symbolicate(report))
    }
}
