import Foundation

/// Reads crash reports: a `.crash` file is gzip-compressed JSON. The JSON is validated against
/// the embedded ``ReportSchema`` first, so every problem is reported against the contract
/// (with a JSON pointer) rather than as a decoder's internal complaint, and only then decoded.
public enum ReportDecoding {
    /// The largest file, and the largest inflated JSON, that is accepted (16 MiB).
    public static let sizeLimit = Gzip.defaultOutputLimit

    /// Reads and decodes a `.crash` file.
    public static func decode(file: URL) throws(ReportError) -> CrashReport {
        try decode(gzipData: read(file))
    }

    /// Decodes a gzip-compressed report.
    public static func decode(gzipData: Data) throws(ReportError) -> CrashReport {
        if gzipData.count > sizeLimit { throw .tooLarge(limit: sizeLimit) }
        let json: Data
        do {
            json = try Gzip.decompress(gzipData, limit: sizeLimit)
        } catch {
            throw ReportError(error)
        }
        return try decode(json: json)
    }

    /// Decodes a report's JSON text.
    public static func decode(json: Data) throws(ReportError) -> CrashReport {
        if json.isEmpty { throw .empty }
        if json.count > sizeLimit { throw .tooLarge(limit: sizeLimit) }
        let any: Any
        do {
            any = try JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])
        } catch {
            throw .notJSON(reason(for: error))
        }
        guard let value = JSONValue(any) else { throw .notJSON("unrepresentable value") }
        guard case .object(let members) = value else {
            throw .notAReport("the top-level value is \(article(value.typeName)), not an object")
        }
        // The version decides which schema applies, so it is looked at before anything else.
        if case .number(let number)? = members["schema_version"], number.isInteger,
            number != .int(Int64(CrashReport.supportedSchemaVersion))
        {
            throw .unsupportedSchemaVersion(number.clampedInt)
        }
        let violations = JSONSchemaValidator(schema: ReportSchema.schema).validate(value)
        if let missing = violations.first(where: { $0.keyword == "required" }) {
            throw .missingMember(missing.path)
        }
        if !violations.isEmpty { throw .invalidReport(violations) }
        // The schema's integers are unbounded; the model's are 64-bit, and JSONDecoder would
        // refuse a larger one without saying where.
        if let outOfRange = firstNumberOutOfRange(value, path: "") { throw .invalidReport([outOfRange]) }
        do {
            return try JSONDecoder().decode(CrashReport.self, from: json)
        } catch {
            throw .invalidReport([violation(for: error)])
        }
    }

    /// The first number that is not an integer in `Int64`'s range (every number in a version 1
    /// report is one: times, counts, ids, sizes). Only called on a schema-valid report, whose
    /// depth the schema bounds.
    private static func firstNumberOutOfRange(_ value: JSONValue, path: String) -> SchemaViolation? {
        switch value {
        case .number(.int):
            return nil
        case .number(let number):
            if case .double(let double) = number, Int64(exactly: double) != nil { return nil }
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

    private static func read(_ file: URL) throws(ReportError) -> Data {
        do {
            return try ReportFile.read(path: file.path, limit: sizeLimit)
        } catch {
            switch error {
            case .system(let path, let code): throw .unreadable(path: path, reason: ReportFile.describe(errno: code))
            case .notRegular(let path): throw .notAFile(path: path)
            case .tooLarge: throw .tooLarge(limit: sizeLimit)
            }
        }
    }

    /// One line for a Foundation error: its POSIX reason when there is one.
    private static func reason(for error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(underlying.code))
        {
            return POSIXError(code).localizedDescription.lowercased()
        }
        if nsError.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(nsError.code)) {
            return POSIXError(code).localizedDescription.lowercased()
        }
        if let debug = nsError.userInfo["NSDebugDescription"] as? String { return oneLine(debug) }
        return oneLine(nsError.localizedDescription)
    }

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
        let path = context.codingPath.map { "/" + JSONPointer.escape($0.intValue.map(String.init) ?? $0.stringValue) }
            .joined()
        return SchemaViolation(path: path, keyword: "decode", message: oneLine(context.debugDescription))
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
