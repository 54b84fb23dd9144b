import CrashReportFormat
import CrashSymbolication

/// The group a report belongs to, by the rule the collector and the Sentry event use
/// (`CrashSignature`, docs/grouping.md): by function names where this machine has the binaries
/// with the report's build ids, by `image+0xoffset` otherwise.
enum Grouping {
    static func signature(of report: CrashReport, symbolicator: Symbolicator = Symbolicator()) -> CrashSignature {
        CrashSignature(report: report, symbols: symbolicator.symbolicate(report))
    }

    /// Every report of a state directory (`Locations.allReports`) with its folder, decoded and
    /// grouped, or why its file cannot be decoded: what `list` and `stats` read.
    static func reports(in directory: String, symbolicator: Symbolicator) -> [(
        status: String, path: String, decoded: Result<(report: CrashReport, signature: CrashSignature), ReportError>
    )] {
        Locations.allReports(in: directory).map { entry in
            (entry.status, entry.path, decoded(file: entry.path, symbolicator: symbolicator))
        }
    }

    private static func decoded(file path: String, symbolicator: Symbolicator) -> Result<
        (report: CrashReport, signature: CrashSignature), ReportError
    > {
        do {
            let report = try ReportDecoding.decode(file: path)
            return .success((report, signature(of: report, symbolicator: symbolicator)))
        } catch {
            return .failure(error)
        }
    }
}
