import Foundation
import PackagePlugin

/// Builds `ReportSchemaText.swift` for `CrashReportFormat` from docs/report.schema.json, the one
/// copy of the schema: the file's bytes inside a raw string literal, so that the library carries
/// the schema without a resource bundle and nobody pastes it by hand.
@main
struct EmbedReportSchema: BuildToolPlugin {
    /// Writes `$2` from `$1`: a raw multi-line string holds the bytes as they are (JSON has no
    /// `"""#`), and the line break before the closing delimiter keeps the file's last newline.
    static let script = ##"""
        { printf 'extension ReportSchema {\n    /// docs/report.schema.json, byte for byte.\n'
          printf '    public static let json: String = #"""\n'
          cat "$1"
          printf '\n"""#\n}\n'
        } > "$2"
        """##

    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let schema = context.package.directoryURL.appending(path: "docs/report.schema.json")
        let output = context.pluginWorkDirectoryURL.appending(path: "ReportSchemaText.swift")
        return [
            .buildCommand(
                displayName: "Embedding docs/report.schema.json in \(target.name)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", Self.script, "embed-report-schema", schema.path, output.path],
                inputFiles: [schema],
                outputFiles: [output])
        ]
    }
}
