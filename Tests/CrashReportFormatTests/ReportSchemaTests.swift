import CrashReportFormat
import Foundation
import TestSupport
import Testing

@Suite("Embedded report schema")
struct ReportSchemaTests {
    static let docsSchema = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // CrashReportTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // the package
        .appendingPathComponent("docs/report.schema.json")

    @Test func embeddedTextIsTheDocsFile() throws {
        let docs = try Data(contentsOf: Self.docsSchema)
        #expect(Data(ReportSchema.json.utf8) == docs, "the EmbedReportSchema plugin changed the bytes")
    }

    @Test func embeddedCopyParses() throws {
        let schema = try JSONSchema(json: Data(ReportSchema.json.utf8))
        #expect(try JSONSchemaValidator(schema: schema).validate(object: ReportFixture.valid()).isEmpty)
    }

    @Test func schemaRejectsAnEmptyObject() throws {
        let violations = try JSONSchemaValidator(schema: ReportSchema.schema).validate(object: [String: Any]())
        #expect(violations.count == 10)
        #expect(violations.allSatisfy { $0.keyword == "required" })
    }
}
