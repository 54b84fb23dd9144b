import CrashReporterSupport

/// Renders a report as pretty-printed JSON with sorted keys: the schema's own shape (it
/// validates against docs/report.schema.json), stable enough to diff two reports. The text is
/// byte for byte what Foundation's `JSONEncoder` writes with `.prettyPrinted`, `.sortedKeys` and
/// `.withoutEscapingSlashes`, which is what this renderer wrote before it left Foundation.
public struct JSONRenderer: Sendable {
    /// A renderer.
    public init() {}

    /// The JSON text, UTF-8, ending in a newline.
    public func data(for report: CrashReport) throws -> [UInt8] {
        var bytes = try JSON.encode(report, pretty: true)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// The JSON text.
    public func render(_ report: CrashReport) throws -> String {
        String(decoding: try data(for: report), as: UTF8.self)
    }
}
