import CrashReporterSupport

/// A parsed JSON Schema (2020-12), limited to the keywords that docs/report.schema.json uses:
/// `type` (a name or a list of names), `properties`, `required`, `additionalProperties`,
/// `propertyNames`, `minProperties`, `maxProperties`, `items`, `minItems`, `maxItems`, `enum`,
/// `const`, `minimum`, `maximum`, `minLength`, `maxLength`, `pattern` and `$ref` to `#` or
/// `#/$defs/<name>`. Parsing refuses any other assertion keyword rather than ignoring it.
public final class JSONSchema: Sendable {
    /// Why a schema could not be parsed.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// JSON pointer into the schema.
        public var path: String
        /// What is wrong, in one line.
        public var reason: String
        public var description: String { "schema \(path.isEmpty ? "(root)" : path): \(reason)" }
    }

    /// `true` or `false` as a whole schema (everything valid, nothing valid).
    let boolean: Bool?
    let types: Set<String>?
    let properties: [String: JSONSchema]
    let required: [String]
    let additionalProperties: JSONSchema?
    let propertyNames: JSONSchema?
    let minProperties: Int?
    let maxProperties: Int?
    let items: JSONSchema?
    let minItems: Int?
    let maxItems: Int?
    let enumValues: [JSONValue]?
    let constValue: JSONValue?
    let minimum: JSONNumber?
    let maximum: JSONNumber?
    let minLength: Int?
    let maxLength: Int?
    let pattern: String?
    let ref: String?
    /// `$defs` of this schema (only the root's are used to resolve `$ref`).
    let defs: [String: JSONSchema]

    /// Parses a schema from JSON text (UTF-8 bytes: `[UInt8]`, a string's `utf8`, `Data`...).
    public convenience init(json: some Collection<UInt8>) throws(ParseError) {
        let value: JSONValue
        do {
            value = try JSON.parse(json)
        } catch {
            throw ParseError(path: "", reason: "not JSON: \(error)")
        }
        try self.init(value, path: "")
    }

    private static let annotations: Set<String> = [
        "$schema", "$id", "$comment", "title", "description", "examples", "default", "deprecated",
    ]
    private static let typeNames: Set<String> = ["null", "boolean", "object", "array", "number", "string", "integer"]

    init(_ value: JSONValue, path: String) throws(ParseError) {
        if case .bool(let flag) = value {
            boolean = flag
            (types, required, properties, defs) = (nil, [], [:], [:])
            (additionalProperties, propertyNames, items) = (nil, nil, nil)
            (minProperties, maxProperties, minItems, maxItems, minLength, maxLength) = (nil, nil, nil, nil, nil, nil)
            (enumValues, constValue, minimum, maximum, pattern, ref) = (nil, nil, nil, nil, nil, nil)
            return
        }
        guard case .object(let keywords) = value else {
            throw ParseError(path: path, reason: "a schema is an object or a boolean")
        }
        let reader = KeywordReader(keywords: keywords, path: path)
        boolean = nil
        if let type = keywords["type"] {
            let names: [String]
            switch type {
            case .string(let name): names = [name]
            case .array(let list):
                names = try list.map { (element: JSONValue) throws(ParseError) -> String in
                    guard case .string(let name) = element else {
                        throw ParseError(path: path + "/type", reason: "type names are strings")
                    }
                    return name
                }
            default: throw ParseError(path: path + "/type", reason: "a type name or a list of them")
            }
            if let unknown = names.first(where: { !Self.typeNames.contains($0) }) {
                throw ParseError(path: path + "/type", reason: "unknown type \(unknown)")
            }
            types = Set(names)
        } else {
            types = nil
        }
        properties = try reader.schemaMap("properties")
        defs = try reader.schemaMap("$defs")
        required = try reader.strings("required")
        additionalProperties = try reader.schema("additionalProperties")
        propertyNames = try reader.schema("propertyNames")
        items = try reader.schema("items")
        minProperties = try reader.count("minProperties")
        maxProperties = try reader.count("maxProperties")
        minItems = try reader.count("minItems")
        maxItems = try reader.count("maxItems")
        minLength = try reader.count("minLength")
        maxLength = try reader.count("maxLength")
        minimum = try reader.number("minimum")
        maximum = try reader.number("maximum")
        constValue = keywords["const"]
        if let list = keywords["enum"] {
            guard case .array(let values) = list else {
                throw ParseError(path: path + "/enum", reason: "enum is an array")
            }
            enumValues = values
        } else {
            enumValues = nil
        }
        pattern = try reader.string("pattern")
        if let pattern {
            do { _ = try Regex(pattern) } catch {
                throw ParseError(path: path + "/pattern", reason: "not a regular expression this reader supports")
            }
        }
        ref = try reader.string("$ref")
        if let ref, ref != "#", !ref.hasPrefix("#/$defs/") {
            throw ParseError(path: path + "/$ref", reason: "only #/$defs/... references are supported")
        }
        let known: Set<String> = [
            "type", "properties", "$defs", "required", "additionalProperties", "propertyNames", "items",
            "minProperties", "maxProperties", "minItems", "maxItems", "minLength", "maxLength", "minimum", "maximum",
            "const", "enum", "pattern", "$ref",
        ]
        for key in keywords.keys.sorted() where !known.contains(key) && !Self.annotations.contains(key) {
            throw ParseError(path: path + "/" + JSONPointer.escape(key), reason: "unsupported keyword \(key)")
        }
    }
}

/// Reads typed keyword values out of a schema object, with errors that say where.
private struct KeywordReader {
    let keywords: [String: JSONValue]
    let path: String

    func error(_ key: String, _ reason: String) -> JSONSchema.ParseError {
        JSONSchema.ParseError(path: path + "/" + JSONPointer.escape(key), reason: reason)
    }

    func schema(_ key: String) throws(JSONSchema.ParseError) -> JSONSchema? {
        guard let value = keywords[key] else { return nil }
        return try JSONSchema(value, path: path + "/" + JSONPointer.escape(key))
    }

    func schemaMap(_ key: String) throws(JSONSchema.ParseError) -> [String: JSONSchema] {
        guard let value = keywords[key] else { return [:] }
        guard case .object(let members) = value else { throw error(key, "\(key) is an object of schemas") }
        var result: [String: JSONSchema] = [:]
        for (name, member) in members {
            result[name] = try JSONSchema(
                member, path: path + "/" + JSONPointer.escape(key) + "/" + JSONPointer.escape(name))
        }
        return result
    }

    func strings(_ key: String) throws(JSONSchema.ParseError) -> [String] {
        guard let value = keywords[key] else { return [] }
        guard case .array(let list) = value else { throw error(key, "\(key) is an array of strings") }
        var result: [String] = []
        for element in list {
            guard case .string(let string) = element else { throw error(key, "\(key) is an array of strings") }
            result.append(string)
        }
        return result
    }

    func string(_ key: String) throws(JSONSchema.ParseError) -> String? {
        guard let value = keywords[key] else { return nil }
        guard case .string(let string) = value else { throw error(key, "\(key) is a string") }
        return string
    }

    func count(_ key: String) throws(JSONSchema.ParseError) -> Int? {
        guard let value = keywords[key] else { return nil }
        guard case .number(.int(let count)) = value, count >= 0 else {
            throw error(key, "\(key) is a non-negative integer")
        }
        return Int(count)
    }

    func number(_ key: String) throws(JSONSchema.ParseError) -> JSONNumber? {
        guard let value = keywords[key] else { return nil }
        guard case .number(let number) = value else { throw error(key, "\(key) is a number") }
        return number
    }
}
