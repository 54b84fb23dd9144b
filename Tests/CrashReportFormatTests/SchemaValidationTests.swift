import CrashReportFormat
import Foundation
import TestSupport
import Testing

@Suite("JSON Schema validation")
struct SchemaValidationTests {
    let validator = JSONSchemaValidator(schema: ReportSchema.schema)

    func violations(setting pointer: String, to value: Any?) throws -> [SchemaViolation] {
        try validator.validate(object: ReportFixture.valid(setting: pointer, to: value))
    }

    @Test func fullReportIsValid() throws {
        #expect(try validator.validate(object: ReportFixture.valid()) == [])
    }

    @Test func nullableMembersTakeEitherType() throws {
        #expect(try violations(setting: "/crash/message", to: NSNull()) == [])
        #expect(try violations(setting: "/crash/unwind_error", to: "step_failed") == [])
    }

    @Test func missingMember() throws {
        #expect(
            try violations(setting: "/crash/message", to: nil) == [
                SchemaViolation(path: "/crash/message", keyword: "required", message: "missing member \"message\"")
            ])
        #expect(try violations(setting: "/images/1/build_id", to: nil).map(\.path) == ["/images/1/build_id"])
    }

    /// The values are JSON text, parsed the way a report is.
    @Test(arguments: [
        ("/uptime_ms", #""42""#, "expected integer, found string"),
        ("/uptime_ms", "4.5", "expected integer, found number"),
        ("/uptime_ms", "true", "expected integer, found boolean"),
        ("/crash/thread/main", "1", "expected boolean, found integer"),
        ("/crash/message", "5", "expected null or string, found integer"),
        ("/app", #"["a"]"#, "expected object, found array"),
    ])
    func wrongType(pointer: String, json: String, message: String) throws {
        let value = try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
        let found = try violations(setting: pointer, to: value)
        #expect(found.map(\.keyword) == ["type"])
        #expect(found.first?.path == pointer)
        #expect(found.first?.message == message)
    }

    @Test func integralDoubleIsAnInteger() throws {
        #expect(try violations(setting: "/uptime_ms", to: 42.0) == [])
    }

    @Test(arguments: [
        ("/report_id", "3F1C2A9E-7B4D-4C1E-9A55-0D2E8B7C6A10"),  // upper case
        ("/report_id", "3f1c2a9e-7b4d-1c1e-9a55-0d2e8b7c6a10"),  // not version 4
        ("/timestamp", "2026-11-29 13:20:05Z"),
        ("/crash/signal/address", "0xABC"),
        ("/crash/signal/address", "0x"),
        ("/crash/signal/address", "0x10000000000000000"),  // 17 digits
        ("/crash/signal/name", "SEGV"),
        ("/crash/frames/1/ip", "12345"),
        ("/crash/registers/rip", "rip"),
        ("/images/0/build_id", "abc"),  // odd number of digits
    ])
    func badPattern(pointer: String, value: String) throws {
        let found = try violations(setting: pointer, to: value)
        #expect(found.map(\.keyword) == ["pattern"])
        #expect(found.first?.path == pointer)
    }

    @Test func patternIsNotFooledByATrailingNewline() throws {
        #expect(try violations(setting: "/crash/signal/address", to: "0x10\n").map(\.keyword) == ["pattern"])
    }

    @Test func extraMember() throws {
        #expect(
            try violations(setting: "/app/user", to: "alice") == [
                SchemaViolation(
                    path: "/app/user", keyword: "additionalProperties", message: "unexpected member \"user\"")
            ])
        // Names are escaped in the pointer (RFC 6901).
        var report = ReportFixture.valid()
        var os = report["os"] as! [String: Any]
        os["a~b/c"] = "x"
        report["os"] = os
        #expect(try validator.validate(object: report).map(\.path) == ["/os/a~0b~1c"])
        #expect(try violations(setting: "/hostname", to: "box").map(\.keyword) == ["additionalProperties"])
    }

    @Test func tooLongString() throws {
        #expect(try violations(setting: "/crash/thread/name", to: String(repeating: "t", count: 15)) == [])
        let found = try violations(setting: "/crash/thread/name", to: String(repeating: "t", count: 16))
        #expect(found.map(\.keyword) == ["maxLength"])
        #expect(found.first?.path == "/crash/thread/name")
    }

    @Test func lengthCountsCodePoints() throws {
        // 15 two-byte characters fit; 8 thumbs with a skin tone are 8 characters but 16 code points.
        #expect(try violations(setting: "/crash/thread/name", to: String(repeating: "é", count: 15)) == [])
        let found = try violations(setting: "/crash/thread/name", to: String(repeating: "👍🏽", count: 8))
        #expect(found.map(\.keyword) == ["maxLength"])
    }

    @Test func tooShortString() throws {
        #expect(try violations(setting: "/crash/signal/code_name", to: "").map(\.keyword) == ["minLength"])
    }

    @Test func badEnum() throws {
        let found = try violations(setting: "/crash/frames/0/trust", to: "guess")
        #expect(found.map(\.keyword) == ["enum"])
        #expect(found.first?.path == "/crash/frames/0/trust")
        #expect(found.first?.message == "\"guess\" is not one of \"context\", \"cfi\"")
        #expect(try violations(setting: "/breadcrumbs/items/0/level", to: "critical").map(\.keyword) == ["enum"])
    }

    @Test func schemaVersionIsOneOfTheKnown() throws {
        #expect(try violations(setting: "/schema_version", to: 5).map(\.keyword) == ["enum"])
        #expect(try violations(setting: "/schema_version", to: 0).map(\.keyword) == ["enum"])
        #expect(try violations(setting: "/schema_version", to: 1.0) == [])
        // The schema alone does not tie members to a version: decoding does.
        #expect(try violations(setting: "/schema_version", to: 2) == [])
    }

    @Test func numericBounds() throws {
        #expect(try violations(setting: "/crash/thread/id", to: 0).map(\.keyword) == ["minimum"])
        #expect(try violations(setting: "/crash/signal/number", to: 65).map(\.keyword) == ["maximum"])
        #expect(try violations(setting: "/crash/signal/number", to: 64) == [])
        #expect(try violations(setting: "/crash/frames/2/image", to: -2).map(\.keyword) == ["minimum"])
        #expect(try violations(setting: "/timestamp_ms", to: -1).map(\.keyword) == ["minimum"])
    }

    @Test func itemCounts() throws {
        let frame: [String: Any] = ["ip": "0x1", "sp": "0x2", "trust": "cfi", "image": -1]
        #expect(try violations(setting: "/crash/frames", to: Array(repeating: frame, count: 256)) == [])
        let found = try violations(setting: "/crash/frames", to: Array(repeating: frame, count: 257))
        #expect(found.map(\.keyword) == ["maxItems"])
        #expect(found.first?.path == "/crash/frames")
    }

    @Test func itemsAreCheckedEach() throws {
        let found = try violations(setting: "/crash/frames/1/sp", to: 7)
        #expect(found.map(\.path) == ["/crash/frames/1/sp"])
    }

    @Test func memberCounts() throws {
        #expect(try violations(setting: "/crash/registers", to: [String: Any]()).map(\.keyword) == ["minProperties"])
        let five = ["a": "1", "b": "2", "c": "3", "d": "4", "e": "5"]
        #expect(try violations(setting: "/breadcrumbs/items/0/data", to: five).map(\.keyword) == ["maxProperties"])
    }

    @Test func memberNames() throws {
        let longKey = String(repeating: "k", count: 32)
        let found = try violations(setting: "/breadcrumbs/items/0/data", to: [longKey: "v"])
        #expect(found.map(\.keyword) == ["propertyNames"])
        #expect(found.first?.path == "/breadcrumbs/items/0/data/" + longKey)
    }

    @Test func additionalPropertiesSchemaApplies() throws {
        #expect(try violations(setting: "/crash/registers/x31", to: "0x1") == [])
        // A number is not an address; `pattern` only applies to strings, so it is one violation.
        #expect(try violations(setting: "/crash/registers/x31", to: 1).map(\.keyword) == ["type"])
        let value = String(repeating: "v", count: 96)
        #expect(try violations(setting: "/breadcrumbs/items/0/data/items", to: value).map(\.keyword) == ["maxLength"])
    }

    @Test func everyViolationIsReportedInDocumentOrder() throws {
        var report = ReportFixture.valid(setting: "/uptime_ms", to: "soon")
        report["report_id"] = "x"
        report["zzz"] = true
        let found = try validator.validate(object: report)
        #expect(found.map(\.path) == ["/report_id", "/uptime_ms", "/zzz"])
        #expect(found.map(\.keyword) == ["pattern", "type", "additionalProperties"])
    }

    @Test func violationsAreCapped() throws {
        let frames = Array(repeating: ["ip": 1, "sp": 2, "trust": "x", "image": "y"] as [String: Any], count: 200)
        let capped = JSONSchemaValidator(schema: ReportSchema.schema, maximumViolations: 10)
        #expect(try capped.validate(object: ReportFixture.valid(setting: "/crash/frames", to: frames)).count == 10)
    }

    @Test func rootMustBeAnObject() throws {
        #expect(try validator.validate(object: [1, 2]).map(\.description) == ["(root): expected object, found array"])
        #expect(validator.validate(json: Array(#"{"schema_version": "#.utf8)).map(\.keyword) == ["type"])
    }

    @Test func schemaParsingRefusesWhatItCannotCheck() throws {
        #expect(throws: JSONSchema.ParseError.self) { try JSONSchema(json: Data(#"{"oneOf": []}"#.utf8)) }
        #expect(throws: JSONSchema.ParseError.self) {
            try JSONSchema(json: Data(#"{"$ref": "https://example.com/other.json"}"#.utf8))
        }
        #expect(throws: JSONSchema.ParseError.self) { try JSONSchema(json: Data(#"{"type": "text"}"#.utf8)) }
        #expect(throws: JSONSchema.ParseError.self) { try JSONSchema(json: Data(#"{"pattern": "("}"#.utf8)) }
        #expect(throws: JSONSchema.ParseError.self) { try JSONSchema(json: Data("[]".utf8)) }
    }

    @Test func booleanSchemas() throws {
        let nothing = JSONSchemaValidator(schema: try JSONSchema(json: Data("false".utf8)))
        let anything = JSONSchemaValidator(schema: try JSONSchema(json: Data("true".utf8)))
        #expect(try nothing.validate(object: 1).map(\.keyword) == ["false"])
        #expect(try anything.validate(object: ["x": [1, NSNull()]]) == [])
    }

    @Test func referencesResolveRecursively() throws {
        let schema = try JSONSchema(
            json: Data(
                #"""
                {"$ref": "#/$defs/node", "$defs": {"node": {"type": "object", "required": ["v"],
                  "properties": {"v": {"type": "integer"}, "next": {"$ref": "#/$defs/node"}}}}}
                """#.utf8))
        let validator = JSONSchemaValidator(schema: schema)
        #expect(try validator.validate(object: ["v": 1, "next": ["v": 2, "next": ["v": 3]]]) == [])
        #expect(
            try validator.validate(object: ["v": 1, "next": ["v": 2, "next": ["v": "3"]]]).map(\.path) == [
                "/next/next/v"
            ])
        // A definition's name is a JSON Pointer token: `~1` in the reference is a `/` in the name.
        let escaped = JSONSchemaValidator(
            schema: try JSONSchema(
                json: Data(##"{"$ref": "#/$defs/a~1b~0", "$defs": {"a/b~": {"type": "integer"}}}"##.utf8)))
        #expect(escaped.validate(json: Data("7".utf8)) == [])
        #expect(escaped.validate(json: Data(#""7""#.utf8)).map(\.keyword) == ["type"])
    }
}
