import CrashReporterSupport

/// Reads crash reports: a `.crash` file is gzip-compressed JSON. The JSON is validated against
/// the embedded ``ReportSchema`` first, so every problem is reported against the contract
/// (with a JSON pointer) rather than as a decoder's internal complaint, and only then decoded.
public enum ReportDecoding {
    /// The largest file, and the largest inflated JSON, that is accepted (16 MiB).
    public static let sizeLimit = Gzip.defaultOutputLimit

    /// Reads and decodes the `.crash` file at `path`.
    public static func decode(file path: String) throws(ReportError) -> CrashReport {
        try decode(gzipData: read(path))
    }

    /// Decodes a gzip-compressed report (any bytes: `[UInt8]`, a slice, Foundation's `Data`).
    public static func decode(gzipData: some Collection<UInt8>) throws(ReportError) -> CrashReport {
        if gzipData.count > sizeLimit { throw .tooLarge(limit: sizeLimit) }
        let json: [UInt8]
        do {
            json = try Gzip.decompress(gzipData, limit: sizeLimit)
        } catch {
            throw ReportError(error)
        }
        return try decode(json: json)
    }

    /// Decodes a report's JSON text (UTF-8 bytes).
    public static func decode(json: some Collection<UInt8>) throws(ReportError) -> CrashReport {
        if json.isEmpty { throw .empty }
        if json.count > sizeLimit { throw .tooLarge(limit: sizeLimit) }
        let value: JSONValue
        do {
            value = try JSON.parse(json)
        } catch {
            throw .notJSON(error.description)
        }
        guard case .object(let members) = value else {
            throw .notAReport("the top-level value is \(article(value.typeName)), not an object")
        }
        // The version decides which schema applies, so it is looked at before anything else.
        if case .number(let number)? = members["schema_version"], number.isInteger,
            !(1...CrashReport.supportedSchemaVersion).contains(number.clampedInt)
        {
            throw .unsupportedSchemaVersion(number.clampedInt)
        }
        let violations = JSONSchemaValidator(schema: ReportSchema.schema).validate(value)
        if let missing = violations.first(where: { $0.keyword == "required" }) {
            throw .missingMember(missing.path)
        }
        if !violations.isEmpty { throw .invalidReport(violations) }
        // The schema's integers are unbounded; the model's are 64-bit, and the decoder's own
        // error for a larger one would not read as the schema's do.
        if let outOfRange = firstNumberOutOfRange(value, path: "") { throw .invalidReport([outOfRange]) }
        do {
            return try JSONValueDecoder().decode(CrashReport.self, from: value)
        } catch DecodingError.keyNotFound(let key, let context) {
            // A member the schema leaves optional but the version needs (version 2's `kind`).
            throw .missingMember(JSONPointer.pointer(codingPath: context.codingPath + [key]))
        } catch {
            throw .invalidReport([violation(for: error)])
        }
    }

    /// The first number that is not an integer in `Int64`'s range (every number in a report is
    /// one: times, counts, ids, sizes). Only called on a schema-valid report, whose
    /// depth the schema bounds.
    private static func firstNumberOutOfRange(_ value: JSONValue, path: String) -> SchemaViolation? {
        switch value {
        case .number(let number):
            if number.exactly(Int64.self) != nil { return nil }
            return SchemaViolation(path: path, keyword: "range", message: "\(number) does not fit in a 64-bit integer")
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let found = firstNumberOutOfRange(element, path: path + "/\(index)") { return found }
            }
            return nil
        case .object(let members):
            for name in members.keys.sorted() {
                if let found = firstNumberOutOfRange(members[name]!, path: path + "/" + JSONPointer.escape(name)) {
                    return found
                }
            }
            return nil
        case .null, .bool, .string:
            return nil
        }
    }

    private static func read(_ path: String) throws(ReportError) -> [UInt8] {
        do {
            return try FileSystem.read(path, limit: sizeLimit)
        } catch {
            switch error.reason {
            case .system(let code): throw .unreadable(path: path, reason: Errno.text(code))
            case .notRegularFile: throw .notAFile(path: path)
            case .tooLarge: throw .tooLarge(limit: sizeLimit)
            }
        }
    }

    /// A decoding error as a violation at the JSON pointer of the value it is about.
    private static func violation(for error: any Error) -> SchemaViolation {
        guard let decodingError = error as? DecodingError else {
            return SchemaViolation(path: "", keyword: "decode", message: oneLine("\(error)"))
        }
        let context: DecodingError.Context
        switch decodingError {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c):
            context = c
        @unknown default:
            return SchemaViolation(path: "", keyword: "decode", message: oneLine("\(error)"))
        }
        return SchemaViolation(
            path: JSONPointer.pointer(codingPath: context.codingPath), keyword: "decode",
            message: oneLine(context.debugDescription))
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    private static func article(_ typeName: String) -> String {
        (typeName == "array" || typeName == "integer" || typeName == "object" ? "an " : "a ") + typeName
    }
}

extension JSONNumber {
    /// The value as an `Int`, clamped to its range (for a message about a version number).
    var clampedInt: Int {
        switch self {
        case .int(let value): Int(value)
        case .uint: Int.max
        case .double(let value): value >= Double(Int.max) ? Int.max : value <= Double(Int.min) ? Int.min : Int(value)
        }
    }
}
