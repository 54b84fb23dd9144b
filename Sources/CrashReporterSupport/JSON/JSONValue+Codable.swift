/// `JSONValue` as a member of `Codable` types (an arbitrary JSON payload inside a typed one).
/// ``JSONValueEncoder`` and ``JSONValueDecoder`` take and give it as it is; other coders go
/// through these conformances.
extension JSONValue: Codable {
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let int = try? container.decode(Int64.self) {
            self = .number(.int(int))
        } else if let uint = try? container.decode(UInt64.self) {
            self = .number(JSONNumber(uint))
        } else if let double = try? container.decode(Double.self) {
            self = JSONValue(double)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let elements = try? container.decode([JSONValue].self) {
            self = .array(elements)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .number(.int(let value)): try container.encode(value)
        case .number(.uint(let value)): try container.encode(value)
        case .number(.double(let value)): try container.encode(value)
        case .string(let text): try container.encode(text)
        case .array(let elements): try container.encode(elements)
        case .object(let members): try container.encode(members)
        }
    }
}
