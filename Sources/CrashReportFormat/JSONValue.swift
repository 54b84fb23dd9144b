import Foundation

/// A JSON value, converted from what `JSONSerialization` returns so that booleans and numbers
/// are told apart (Foundation hands both out as `NSNumber`) and numbers compare exactly.
enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Converts `JSONSerialization` output (or the same shapes built in Swift). `nil` for
    /// anything that is not a JSON value.
    init?(_ any: Any) {
        switch any {
        case is NSNull:
            self = .null
        case let string as String:
            self = .string(string)
        case let number as NSNumber:
            if ObjectIdentifier(type(of: number)) == Self.booleanClass {
                self = .bool(number.boolValue)
            } else if let value = JSONNumber(number) {
                self = .number(value)
            } else {
                return nil
            }
        case let array as [Any]:
            var values: [JSONValue] = []
            values.reserveCapacity(array.count)
            for element in array {
                guard let value = JSONValue(element) else { return nil }
                values.append(value)
            }
            self = .array(values)
        case let object as [String: Any]:
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(object.count)
            for (key, element) in object {
                guard let value = JSONValue(element) else { return nil }
                members[key] = value
            }
            self = .object(members)
        default:
            return nil
        }
    }

    // Foundation's booleans are instances of a private NSNumber subclass; `is Bool` would
    // also be true for the numbers 0 and 1.
    private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))

    /// The JSON Schema type name of this value; `integer` for numbers with no fraction.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number(let number): number.isInteger ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// A JSON number: exact for every 64-bit integer, a double otherwise.
enum JSONNumber: Equatable, Sendable, Comparable, CustomStringConvertible {
    case int(Int64)
    case uint(UInt64)  // only above Int64.max
    case double(Double)

    init?(_ number: NSNumber) {
        switch String(cString: number.objCType) {
        case "c", "s", "i", "l", "q", "C", "S", "I", "L":
            self = .int(number.int64Value)
        case "Q":
            let value = number.uint64Value
            self = value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value)
        case "f", "d":
            let value = number.doubleValue
            guard value.isFinite else { return nil }
            self = .double(value)
        default:
            return nil
        }
    }

    init(_ value: Double) {
        if let exact = Int64(exactly: value) { self = .int(exact) } else { self = .double(value) }
    }

    var isInteger: Bool {
        switch self {
        case .int, .uint: true
        case .double(let value): value.rounded(.towardZero) == value
        }
    }

    var asDouble: Double {
        switch self {
        case .int(let value): Double(value)
        case .uint(let value): Double(value)
        case .double(let value): value
        }
    }

    /// Exact when both sides are integers, through `Double` otherwise.
    static func < (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        switch (lhs, rhs) {
        case let (.int(l), .int(r)): l < r
        case let (.uint(l), .uint(r)): l < r
        case (.int, .uint): true
        case (.uint, .int): false
        default: lhs.asDouble < rhs.asDouble
        }
    }

    static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        switch (lhs, rhs) {
        case let (.int(l), .int(r)): l == r
        case let (.uint(l), .uint(r)): l == r
        case (.int, .uint), (.uint, .int): false
        default: lhs.asDouble == rhs.asDouble
        }
    }

    var description: String {
        switch self {
        case .int(let value): String(value)
        case .uint(let value): String(value)
        case .double(let value): String(value)
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text, for messages (`"cfi"`, `1`, `null`).
    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): String(value)
        case .number(let number): number.description
        case .string(let string): Self.quoted(string)
        case .array(let values): "[" + values.map(\.description).joined(separator: ",") + "]"
        case .object(let members):
            "{"
                + members.keys.sorted().map { Self.quoted($0) + ":" + members[$0]!.description }
                .joined(separator: ",") + "}"
        }
    }

    static func quoted(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20 || (0x7f...0x9f).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
