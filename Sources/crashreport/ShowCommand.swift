import CrashReportFormat
import CrashSymbolication
import Foundation

/// `crashreport show`: one report as a symbolicated crash log, or as JSON.
enum ShowCommand {
    static func run(
        _ options: ShowOptions, environment: [String: String], output: inout some TextOutputStream
    ) throws -> ExitCode {
        let report = try Locations.decodedReport(options.file, directory: options.directory, environment: environment)
        switch options.format {
        case .text:
            let symbolication = options.symbolicate ? Symbolicator().symbolication(of: report) : nil
            let renderer = TextRenderer(
                symbols: symbolication?.symbols ?? [:], runtimeFailure: symbolication?.runtimeFailure)
            output.write(renderer.render(report))
        case .json:
            output.write(try JSONRenderer().render(report))
        }
        return .success
    }
}
