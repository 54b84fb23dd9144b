import CrashReporterSupport

/// One way an instance fails a schema.
public struct SchemaViolation: Sendable, Equatable, CustomStringConvertible {
    /// JSON pointer (RFC 6901) to the offending value in the instance; `""` is the root.
    public var path: String
    /// The schema keyword that failed (`required`, `type`, `pattern`, `additionalProperties`, ...).
    public var keyword: String
    /// What is wrong, for people.
    public var message: String

    /// A violation at `path` of the schema's `keyword`, saying `message`.
    public init(path: String, keyword: String, message: String) {
        self.path = path
        self.keyword = keyword
        self.message = message
    }

    public var description: String { "\(path.isEmpty ? "(root)" : path): \(message)" }
}

/// Validates JSON documents against a ``JSONSchema``.
public struct JSONSchemaValidator: Sendable {
    /// The schema instances are checked against.
    public let schema: JSONSchema
    /// Validation stops collecting after this many violations (a hostile file could have millions).
    public var maximumViolations: Int

    /// A validator for `schema` that stops after `maximumViolations` violations.
    public init(schema: JSONSchema, maximumViolations: Int = 100) {
        self.schema = schema
        self.maximumViolations = maximumViolations
    }

    /// Every violation (up to ``maximumViolations``) of the JSON text `json` (UTF-8 bytes), in
    /// document order; empty when it is valid. Text that is not JSON at all is one `type`
    /// violation at the root, whose message is the parser's reason.
    public func validate(json: some Collection<UInt8>) -> [SchemaViolation] {
        let value: JSONValue
        do {
            value = try JSON.parse(json)
        } catch {
            return [SchemaViolation(path: "", keyword: "type", message: "not JSON: \(error)")]
        }
        return validate(value)
    }

    /// Every violation (up to ``maximumViolations``) of a parsed value, in document order.
    package func validate(_ value: JSONValue) -> [SchemaViolation] {
        var run = Run(root: schema, limit: maximumViolations)
        run.check(value, against: schema, at: "")
        return run.violations
    }
}

/// The state of one validation: the violations so far and the compiled patterns.
private struct Run {
    let root: JSONSchema
    let limit: Int
    var violations: [SchemaViolation] = []
    // Regex is not Sendable, so patterns are compiled per run rather than stored in the schema.
    var patterns: [String: Regex<AnyRegexOutput>] = [:]

    var isFull: Bool { violations.count >= limit }

    mutating func fail(_ path: String, _ keyword: String, _ message: String) {
        guard !isFull else { return }
        violations.append(SchemaViolation(path: path, keyword: keyword, message: message))
    }

    mutating func check(_ value: JSONValue, against schema: JSONSchema, at path: String) {
        guard !isFull else { return }
        if let boolean = schema.boolean {
            if !boolean { fail(path, "false", "no value is allowed here") }
            return
        }
        if let ref = schema.ref {
            if let target = resolve(ref) {
                check(value, against: target, at: path)
            } else {
                fail(path, "$ref", "the schema's reference \(ref) does not resolve")
            }
        }
        if let types = schema.types, !matches(value, types) {
            let expected = types.sorted().joined(separator: " or ")
            fail(path, "type", "expected \(expected), found \(value.typeName)")
        }
        if let constValue = schema.constValue, value != constValue {
            fail(path, "const", "expected \(constValue), found \(value)")
        }
        if let enumValues = schema.enumValues, !enumValues.contains(value) {
            let allowed = enumValues.map(\.description).joined(separator: ", ")
            fail(path, "enum", "\(value) is not one of \(allowed)")
        }
        switch value {
        case .number(let number): checkNumber(number, schema, path)
        case .string(let string): checkString(string, schema, path)
        case .array(let elements): checkArray(elements, schema, path)
        case .object(let members): checkObject(members, schema, path)
        case .null, .bool: break
        }
    }

    func resolve(_ ref: String) -> JSONSchema? {
        if ref == "#" { return root }
        // One JSON Pointer token: `~1` is `/`, `~0` is `~` (in that order, so `~01` stays `~1`).
        let token = ref.dropFirst("#/$defs/".count)
        return root.defs[String(token.replacing("~1", with: "/").replacing("~0", with: "~"))]
    }

    /// A string as JSON text, for messages (control characters escaped).
    func quoted(_ text: String) -> String { JSONValue.string(text).description }

    func matches(_ value: JSONValue, _ types: Set<String>) -> Bool {
        let name = value.typeName
        return types.contains(name) || (name == "integer" && types.contains("number"))
    }

    mutating func checkNumber(_ number: JSONNumber, _ schema: JSONSchema, _ path: String) {
        if let minimum = schema.minimum, number < minimum {
            fail(path, "minimum", "\(number) is less than the minimum \(minimum)")
        }
        if let maximum = schema.maximum, maximum < number {
            fail(path, "maximum", "\(number) is greater than the maximum \(maximum)")
        }
    }

    mutating func checkString(_ string: String, _ schema: JSONSchema, _ path: String) {
        // JSON Schema counts code points, not grapheme clusters or bytes.
        let length = string.unicodeScalars.count
        if let minLength = schema.minLength, length < minLength {
            fail(path, "minLength", "\(length) characters, fewer than the minimum \(minLength)")
        }
        if let maxLength = schema.maxLength, length > maxLength {
            fail(path, "maxLength", "\(length) characters, more than the maximum \(maxLength)")
        }
        if let pattern = schema.pattern, let regex = compiled(pattern) {
            // A pattern matches anywhere unless it is anchored, as in ECMA-262.
            if string.firstMatch(of: regex) == nil {
                fail(path, "pattern", "\(quoted(string)) does not match \(pattern)")
            }
        }
    }

    mutating func compiled(_ pattern: String) -> Regex<AnyRegexOutput>? {
        if let regex = patterns[pattern] { return regex }
        // Parsing the schema already proved the pattern compiles.
        guard let regex = try? Regex(pattern).matchingSemantics(.unicodeScalar) else { return nil }
        patterns[pattern] = regex
        return regex
    }

    mutating func checkArray(_ elements: [JSONValue], _ schema: JSONSchema, _ path: String) {
        if let minItems = schema.minItems, elements.count < minItems {
            fail(path, "minItems", "\(elements.count) items, fewer than the minimum \(minItems)")
        }
        if let maxItems = schema.maxItems, elements.count > maxItems {
            fail(path, "maxItems", "\(elements.count) items, more than the maximum \(maxItems)")
        }
        if let items = schema.items {
            for (index, element) in elements.enumerated() {
                check(element, against: items, at: path + "/\(index)")
                if isFull { return }
            }
        }
    }

    mutating func checkObject(_ members: [String: JSONValue], _ schema: JSONSchema, _ path: String) {
        for name in schema.required where members[name] == nil {
            fail(path + "/" + JSONPointer.escape(name), "required", "missing member \(quoted(name))")
        }
        if let minProperties = schema.minProperties, members.count < minProperties {
            fail(path, "minProperties", "\(members.count) members, fewer than the minimum \(minProperties)")
        }
        if let maxProperties = schema.maxProperties, members.count > maxProperties {
            fail(path, "maxProperties", "\(members.count) members, more than the maximum \(maxProperties)")
        }
        for name in members.keys.sorted() {
            let memberPath = path + "/" + JSONPointer.escape(name)
            if let propertyNames = schema.propertyNames {
                var names = Run(root: root, limit: 1)
                names.patterns = patterns
                names.check(.string(name), against: propertyNames, at: memberPath)
                if let violation = names.violations.first {
                    fail(memberPath, "propertyNames", "member name \(violation.message)")
                }
            }
            if let property = schema.properties[name] {
                check(members[name]!, against: property, at: memberPath)
            } else if let additional = schema.additionalProperties {
                if additional.boolean == false {
                    fail(memberPath, "additionalProperties", "unexpected member \(quoted(name))")
                } else {
                    check(members[name]!, against: additional, at: memberPath)
                }
            }
            if isFull { return }
        }
    }
}
