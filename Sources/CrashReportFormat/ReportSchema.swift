/// docs/report.schema.json (JSON Schema 2020-12), the contract for schema versions 1 to 3. Its
/// text, `json`, is built into the module from that file by the `EmbedReportSchema` plugin, so
/// the library needs no resource bundle and the schema has one copy.
public enum ReportSchema {
    /// The parsed schema. Parsing the embedded text cannot fail (a test proves it), so a
    /// failure here is a programming error.
    public static let schema: JSONSchema = {
        do {
            return try JSONSchema(json: json.utf8)
        } catch {
            fatalError("the embedded report schema does not parse: \(error)")
        }
    }()
}
