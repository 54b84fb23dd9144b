/// A JSON value, as ``JSON/parse(_:depthLimit:)`` reads it and ``JSONWriter`` writes it.
///
/// Booleans and numbers are distinct cases (Foundation's `JSONSerialization` hands both out as
/// `NSNumber`), numbers keep every 64-bit integer exactly (``JSONNumber``), and objects are
/// dictionaries: member order is not kept, and writers sort the keys.
package enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The JSON Schema type name of this value; `integer` for numbers with no fraction.
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number(let number): number.isInteger ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The member named `key` of an object; `nil` for a missing member or a value that is not
    /// an object.
    package subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    package var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    package var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    package var numberValue: JSONNumber? {
        if case .number(let value) = self { return value }
        return nil
    }

    package var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    package var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }
}

extension JSONValue {
    /// An integer value.
    package init(_ value: Int) { self = .number(.int(Int64(value))) }

    /// A double value; `.null` for NaN and infinities, which JSON cannot hold (as a JavaScript
    /// `JSON.stringify` does).
    package init(_ value: Double) { self = JSONNumber(value).map(JSONValue.number) ?? .null }

    /// A string, or `.null` for `nil`.
    package init(_ value: String?) { self = value.map(JSONValue.string) ?? .null }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int64) { self = .number(.int(value)) }
    package init(floatLiteral value: Double) { self = JSONValue(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }

    /// A repeated key keeps its last value, as the parser does.
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text with sorted keys, for messages (`"cfi"`, `1`, `null`). Unlike
    /// ``JSON/serialize(_:pretty:)`` it also escapes DEL and the C1 control characters, so that
    /// a value from a file cannot move a terminal's cursor when the message is shown.
    package var description: String {
        var writer = JSONWriter(capacity: 64)
        writer.value(self, escaping: .terminalSafe)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
