import Foundation

/// Renders a report as pretty-printed JSON with sorted keys: the schema's own shape (it
/// validates against docs/report.schema.json), stable enough to diff two reports.
public struct JSONRenderer: Sendable {
    public init() {}

    /// The JSON text, UTF-8, ending in a newline.
    public func data(for report: CrashReport) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(report)
        data.append(0x0a)
        return data
    }

    /// The JSON text.
    public func render(_ report: CrashReport) throws -> String {
        String(decoding: try data(for: report), as: UTF8.self)
    }
}
