/// Turns an `Encodable` value into a ``JSONValue``, with `JSONEncoder`'s rules: `nil` optionals
/// left out by `encodeIfPresent`, `[String: T]` (and `[Int: T]`) as objects, a nested value
/// that encodes nothing as `{}`, NaN and infinities refused, errors as `EncodingError` with the
/// coding path of the value. Foundation's own types get no special treatment (there is no
/// Foundation here): a `Date` or `URL` encodes as its `Codable` conformance says.
package struct JSONValueEncoder: Sendable {
    /// Passed to every `encode(to:)` as the encoder's `userInfo`.
    package var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    package init() {}

    package func encode(_ value: some Encodable) throws -> JSONValue {
        switch try EncodedNode.slot(for: value, codingPath: [], userInfo: userInfo) {
        case .value(let json):
            return json
        case .node(let node):
            guard let json = node.json() else {
                throw EncodingError.invalidValue(
                    value,
                    EncodingError.Context(
                        codingPath: [], debugDescription: "Top-level \(type(of: value)) did not encode any values."))
            }
            return json
        }
    }
}

/// What a container holds: a finished value, or a node that nested containers may still fill.
private enum EncodedSlot {
    case value(JSONValue)
    case node(EncodedNode)

    var json: JSONValue {
        switch self {
        case .value(let value): value
        case .node(let node): node.json() ?? .object([:])  // encoded nothing: {} as JSONEncoder writes
        }
    }
}

/// One value being encoded. A reference, because containers handed out by an encoder keep
/// writing into it after they are returned (a nested container fills its parent's member).
/// The last kind of container asked for wins.
private final class EncodedNode {
    var scalar: JSONValue?
    var members: [String: EncodedSlot]?
    var elements: [EncodedSlot]?

    func json() -> JSONValue? {
        if let members { return .object(members.mapValues(\.json)) }
        if let elements { return .array(elements.map(\.json)) }
        return scalar
    }

    func makeObject() {
        if members == nil { (scalar, elements, members) = (nil, nil, [:]) }
    }

    func makeArray() {
        if elements == nil { (scalar, members, elements) = (nil, nil, []) }
    }

    func set(_ slot: EncodedSlot, forKey key: String) {
        makeObject()
        members![key] = slot
    }

    func append(_ slot: EncodedSlot) {
        makeArray()
        elements!.append(slot)
    }

    /// The slot for an `Encodable`: common leaf types directly (no node, no encoder), others
    /// through their `encode(to:)`.
    static func slot<T: Encodable>(
        for value: T, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable]
    ) throws -> EncodedSlot {
        switch value {
        case let json as JSONValue: return .value(json)
        case let string as String: return .value(.string(string))
        case let flag as Bool: return .value(.bool(flag))
        case let int as Int: return .value(.number(.int(Int64(int))))
        case let int as Int64: return .value(.number(.int(int)))
        case let double as Double: return .value(try box(double, codingPath: codingPath))
        default:
            let node = EncodedNode()
            try value.encode(to: EncoderBackend(node: node, codingPath: codingPath, options: userInfo))
            return .node(node)
        }
    }

    static func box(_ value: Double, codingPath: [any CodingKey]) throws -> JSONValue {
        guard let number = JSONNumber(value) else { throw notValid(value, codingPath) }
        return .number(number)
    }

    /// A `Float` by its own shortest text (`0.1`, not the `0.10000000149011612` of
    /// `Double(0.1 as Float)`), as `JSONEncoder` writes it.
    static func box(_ value: Float, codingPath: [any CodingKey]) throws -> JSONValue {
        guard value.isFinite, let double = Double(value.description) else { throw notValid(value, codingPath) }
        return .number(.double(double))
    }

    /// NaN or an infinity, which JSON cannot hold.
    private static func notValid(_ value: some FloatingPoint, _ codingPath: [any CodingKey]) -> EncodingError {
        .invalidValue(
            value, EncodingError.Context(codingPath: codingPath, debugDescription: "\(value) is not valid in JSON."))
    }

    static func box<T: FixedWidthInteger>(_ value: T) -> JSONValue {
        if let exact = Int64(exactly: value) { return .number(.int(exact)) }
        return .number(JSONNumber(UInt64(value)))
    }
}

private struct EncoderBackend: Encoder {
    let node: EncodedNode
    let codingPath: [any CodingKey]
    let options: [CodingUserInfoKey: any Sendable]
    var userInfo: [CodingUserInfoKey: Any] { options }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(KeyedEncoder<Key>(node: node, codingPath: codingPath, options: options))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeArray()
        return UnkeyedEncoder(node: node, codingPath: codingPath, options: options)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueEncoder(node: node, codingPath: codingPath, options: options)
    }
}

private struct KeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodedNode
    let codingPath: [any CodingKey]
    let options: [CodingUserInfoKey: any Sendable]

    private func put(_ value: JSONValue, _ key: Key) { node.set(.value(value), forKey: key.stringValue) }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        put(try EncodedNode.box(value, codingPath: codingPath + [key]), key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        put(try EncodedNode.box(value, codingPath: codingPath + [key]), key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(EncodedNode.box(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(EncodedNode.box(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(EncodedNode.box(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(EncodedNode.box(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(EncodedNode.box(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(EncodedNode.box(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(EncodedNode.box(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(EncodedNode.box(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(EncodedNode.box(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(EncodedNode.box(value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let slot = try EncodedNode.slot(for: value, codingPath: codingPath + [key], userInfo: options)
        node.set(slot, forKey: key.stringValue)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = EncodedNode()
        child.makeObject()
        node.set(.node(child), forKey: key.stringValue)
        return KeyedEncodingContainer(
            KeyedEncoder<NestedKey>(node: child, codingPath: codingPath + [key], options: options))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = EncodedNode()
        child.makeArray()
        node.set(.node(child), forKey: key.stringValue)
        return UnkeyedEncoder(node: child, codingPath: codingPath + [key], options: options)
    }

    mutating func superEncoder() -> any Encoder { superEncoder(key: JSONCodingKey.super) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(key: key) }

    private func superEncoder(key: any CodingKey) -> any Encoder {
        let child = EncodedNode()
        node.set(.node(child), forKey: key.stringValue)
        return EncoderBackend(node: child, codingPath: codingPath + [key], options: options)
    }
}

/// The containers without keys (unkeyed and single-value), which encode a primitive alike: as
/// its JSON value, put where the container puts values, a float failing with `valuePath`.
private protocol PrimitiveValueEncoder {
    /// The coding path of the value `put` receives next.
    var valuePath: [any CodingKey] { get }
    func put(_ value: JSONValue)
}

extension PrimitiveValueEncoder {
    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { put(try EncodedNode.box(value, codingPath: valuePath)) }
    mutating func encode(_ value: Float) throws { put(try EncodedNode.box(value, codingPath: valuePath)) }
    mutating func encode(_ value: Int) throws { put(EncodedNode.box(value)) }
    mutating func encode(_ value: Int8) throws { put(EncodedNode.box(value)) }
    mutating func encode(_ value: Int16) throws { put(EncodedNode.box(value)) }
    mutating func encode(_ value: Int32) throws { put(EncodedNode.box(value)) }
    mutating func encode(_ value: Int64) throws { put(EncodedNode.box(value)) }
    mutating func encode(_ value: UInt) throws { put(EncodedNode.box(value)) }
    mutating func encode(_ value: UInt8) throws { put(EncodedNode.box(value)) }
    mutating func encode(_ value: UInt16) throws { put(EncodedNode.box(value)) }
    mutating func encode(_ value: UInt32) throws { put(EncodedNode.box(value)) }
    mutating func encode(_ value: UInt64) throws { put(EncodedNode.box(value)) }
}

private struct UnkeyedEncoder: UnkeyedEncodingContainer, PrimitiveValueEncoder {
    let node: EncodedNode
    let codingPath: [any CodingKey]
    let options: [CodingUserInfoKey: any Sendable]

    var count: Int { node.elements?.count ?? 0 }

    /// The coding path of the next element.
    private var nextPath: [any CodingKey] { codingPath + [JSONCodingKey(index: count)] }
    var valuePath: [any CodingKey] { nextPath }

    func put(_ value: JSONValue) { node.append(.value(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        node.append(try EncodedNode.slot(for: value, codingPath: nextPath, userInfo: options))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let path = nextPath
        let child = EncodedNode()
        child.makeObject()
        node.append(.node(child))
        return KeyedEncodingContainer(KeyedEncoder<NestedKey>(node: child, codingPath: path, options: options))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        let child = EncodedNode()
        child.makeArray()
        node.append(.node(child))
        return UnkeyedEncoder(node: child, codingPath: path, options: options)
    }

    mutating func superEncoder() -> any Encoder {
        let path = nextPath
        let child = EncodedNode()
        node.append(.node(child))
        return EncoderBackend(node: child, codingPath: path, options: options)
    }
}

private struct SingleValueEncoder: SingleValueEncodingContainer, PrimitiveValueEncoder {
    let node: EncodedNode
    let codingPath: [any CodingKey]
    let options: [CodingUserInfoKey: any Sendable]

    var valuePath: [any CodingKey] { codingPath }

    func put(_ value: JSONValue) { (node.members, node.elements, node.scalar) = (nil, nil, value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        switch try EncodedNode.slot(for: value, codingPath: codingPath, userInfo: options) {
        case .value(let json): put(json)
        case .node(let child):
            (node.scalar, node.members, node.elements) = (child.scalar, child.members, child.elements)
        }
    }
}
