/// Builds a `Decodable` value from a ``JSONValue``, with `JSONDecoder`'s rules and errors: a
/// missing member is `keyNotFound`, `null` where a value is needed `valueNotFound`, a value of
/// the wrong JSON type `typeMismatch`, and a number that the integer type cannot hold exactly
/// (out of range, or with a fraction) `dataCorrupted`; each with the coding path of the value,
/// array positions as `Index N` keys (``JSONPointer/pointer(codingPath:)`` turns it into a
/// pointer). An integral number decodes into any integer type that holds it (`1e3` into an
/// `Int`), and every number into `Double`; `Float` refuses numbers beyond its range.
package struct JSONValueDecoder: Sendable {
    /// Passed to every `init(from:)` as the decoder's `userInfo`.
    package var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    package init() {}

    package func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try Unbox.decodable(type, value, codingPath: [], options: userInfo)
    }
}

/// Conversions from a value to what a decoder was asked for.
private enum Unbox {
    static func decodable<T: Decodable>(
        _ type: T.Type, _ value: JSONValue, codingPath: [any CodingKey], options: [CodingUserInfoKey: any Sendable]
    ) throws -> T {
        // The common leaf types without making a decoder for them.
        if T.self == JSONValue.self { return value as! T }
        if T.self == String.self { return try string(value, codingPath) as! T }
        if T.self == Int.self { return try integer(Int.self, value, codingPath) as! T }
        if T.self == Int64.self { return try integer(Int64.self, value, codingPath) as! T }
        if T.self == Bool.self { return try bool(value, codingPath) as! T }
        if T.self == Double.self { return try double(value, codingPath) as! T }
        return try T(from: DecoderBackend(value: value, codingPath: codingPath, options: options))
    }

    static func bool(_ value: JSONValue, _ codingPath: [any CodingKey]) throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(Bool.self, value, codingPath) }
        return flag
    }

    static func string(_ value: JSONValue, _ codingPath: [any CodingKey]) throws -> String {
        guard case .string(let text) = value else { throw mismatch(String.self, value, codingPath) }
        return text
    }

    static func double(_ value: JSONValue, _ codingPath: [any CodingKey]) throws -> Double {
        guard case .number(let number) = value else { throw mismatch(Double.self, value, codingPath) }
        return number.doubleValue
    }

    static func float(_ value: JSONValue, _ codingPath: [any CodingKey]) throws -> Float {
        guard case .number(let number) = value else { throw mismatch(Float.self, value, codingPath) }
        let double = number.doubleValue
        guard double.magnitude <= Double(Float.greatestFiniteMagnitude) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: codingPath, debugDescription: "Number \(number) does not fit in Float."))
        }
        return Float(double)
    }

    static func integer<T: FixedWidthInteger>(
        _ type: T.Type, _ value: JSONValue, _ codingPath: [any CodingKey]
    ) throws -> T {
        guard case .number(let number) = value else { throw mismatch(T.self, value, codingPath) }
        guard let exact = number.exactly(T.self) else {
            let problem = number.isInteger ? "does not fit in \(T.self)" : "is not an integer (expected \(T.self))"
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: codingPath, debugDescription: "Number \(number) \(problem)."))
        }
        return exact
    }

    /// `valueNotFound` for `null`, `typeMismatch` for anything else.
    static func mismatch(_ type: Any.Type, _ value: JSONValue, _ codingPath: [any CodingKey]) -> DecodingError {
        if value == .null {
            return .valueNotFound(
                type,
                DecodingError.Context(codingPath: codingPath, debugDescription: "Expected \(type) but found null."))
        }
        let article = ["array", "integer", "object"].contains(value.typeName) ? "an" : "a"
        return .typeMismatch(
            type,
            DecodingError.Context(
                codingPath: codingPath, debugDescription: "Expected \(type) but found \(article) \(value.typeName)."))
    }
}

private struct DecoderBackend: Decoder, SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let options: [CodingUserInfoKey: any Sendable]
    var userInfo: [CodingUserInfoKey: Any] { options }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw Unbox.mismatch(KeyedDecodingContainer<Key>.self, value, codingPath)
        }
        return KeyedDecodingContainer(KeyedDecoder<Key>(members: members, codingPath: codingPath, options: options))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw Unbox.mismatch((any UnkeyedDecodingContainer).self, value, codingPath)
        }
        return UnkeyedDecoder(elements: elements, codingPath: codingPath, options: options)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { value == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try Unbox.bool(value, codingPath) }
    func decode(_ type: String.Type) throws -> String { try Unbox.string(value, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try Unbox.double(value, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try Unbox.float(value, codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try Unbox.integer(type, value, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try Unbox.integer(type, value, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try Unbox.integer(type, value, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try Unbox.integer(type, value, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try Unbox.integer(type, value, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try Unbox.integer(type, value, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try Unbox.integer(type, value, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try Unbox.integer(type, value, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try Unbox.integer(type, value, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try Unbox.integer(type, value, codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try Unbox.decodable(type, value, codingPath: codingPath, options: options)
    }
}

private struct KeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]
    let options: [CodingUserInfoKey: any Sendable]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func value(_ key: Key) throws -> JSONValue {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(codingPath: codingPath, debugDescription: "No member \"\(key.stringValue)\"."))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(key) == .null }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try Unbox.bool(value(key), codingPath + [key])
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try Unbox.string(value(key), codingPath + [key])
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try Unbox.double(value(key), codingPath + [key])
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try Unbox.float(value(key), codingPath + [key])
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }

    private func integer<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T {
        try Unbox.integer(type, value(key), codingPath + [key])
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try Unbox.decodable(type, value(key), codingPath: codingPath + [key], options: options)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try DecoderBackend(value: value(key), codingPath: codingPath + [key], options: options).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try DecoderBackend(value: value(key), codingPath: codingPath + [key], options: options).unkeyedContainer()
    }

    /// The decoder of the `super` member (`null` when it is missing, as in `JSONDecoder`).
    func superDecoder() throws -> any Decoder {
        DecoderBackend(
            value: members[JSONCodingKey.super.stringValue] ?? .null, codingPath: codingPath + [JSONCodingKey.super],
            options: options)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        DecoderBackend(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key], options: options)
    }
}

private struct UnkeyedDecoder: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    let options: [CodingUserInfoKey: any Sendable]
    private(set) var currentIndex = 0

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The path of the current element.
    private var path: [any CodingKey] { codingPath + [JSONCodingKey(index: currentIndex)] }

    /// The current element; `valueNotFound` past the end.
    private func current(_ type: Any.Type) throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, DecodingError.Context(codingPath: path, debugDescription: "Unkeyed container is at end."))
        }
        return elements[currentIndex]
    }

    /// Decodes the current element and only then moves past it, so that a failed attempt can
    /// be retried as another type (as with `JSONDecoder`).
    private mutating func next<T>(_ type: T.Type, _ body: (JSONValue, [any CodingKey]) throws -> T) throws -> T {
        let result = try body(current(type), path)
        currentIndex += 1
        return result
    }

    mutating func decodeNil() throws -> Bool {
        guard try current(Never?.self) == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type, Unbox.bool) }
    mutating func decode(_ type: String.Type) throws -> String { try next(type, Unbox.string) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type, Unbox.double) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type, Unbox.float) }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    private mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        try next(type) { value, path in try Unbox.integer(type, value, path) }
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let options = options
        return try next(type) { value, path in try Unbox.decodable(type, value, codingPath: path, options: options) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let options = options
        return try next(KeyedDecodingContainer<NestedKey>.self) { value, path in
            try DecoderBackend(value: value, codingPath: path, options: options).container(keyedBy: type)
        }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let options = options
        return try next((any UnkeyedDecodingContainer).self) { value, path in
            try DecoderBackend(value: value, codingPath: path, options: options).unkeyedContainer()
        }
    }

    mutating func superDecoder() throws -> any Decoder {
        let options = options
        return try next((any Decoder).self) { value, path in
            DecoderBackend(value: value, codingPath: path, options: options)
        }
    }
}
