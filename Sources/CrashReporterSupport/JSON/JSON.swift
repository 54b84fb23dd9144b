/// The entry points for JSON text: parsing, writing, and `Codable` types to and from bytes.
package enum JSON {
    /// How deep arrays and objects may nest before parsing fails (as in `JSONSerialization`).
    package static let defaultDepthLimit = 512

    /// Parses JSON text (see ``JSONParser`` for exactly what is accepted).
    package static func parse(
        _ utf8: UnsafeBufferPointer<UInt8>, depthLimit: Int = defaultDepthLimit
    ) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(utf8, depthLimit: depthLimit)
    }

    /// Parses JSON text from any bytes: `[UInt8]`, `ArraySlice<UInt8>`, Foundation's `Data`…
    /// (read in place when they are contiguous, copied once otherwise).
    package static func parse(
        _ utf8: some Collection<UInt8>, depthLimit: Int = defaultDepthLimit
    ) throws(JSONParseError) -> JSONValue {
        let result = utf8.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try JSONParser.parse(buffer, depthLimit: depthLimit) }
        }
        if let result { return try result.get() }
        return try Array(utf8).withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try JSONParser.parse(buffer, depthLimit: depthLimit) }
        }.get()
    }

    /// Parses JSON text from a string.
    package static func parse(_ text: String, depthLimit: Int = defaultDepthLimit) throws(JSONParseError) -> JSONValue {
        var text = text
        return try text.withUTF8 { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try JSONParser.parse(buffer, depthLimit: depthLimit) }
        }.get()
    }

    /// The value as UTF-8 JSON text, keys sorted, `/` unescaped: byte for byte what
    /// `JSONEncoder` writes with `[.sortedKeys, .withoutEscapingSlashes]`, and with
    /// `.prettyPrinted` too when `pretty` (no newline at the end, as there).
    package static func serialize(_ value: JSONValue, pretty: Bool = false) -> [UInt8] {
        var writer = JSONWriter()
        writer.value(value, pretty: pretty)
        return writer.bytes
    }

    /// A `Codable` value as JSON text, as ``serialize(_:pretty:)`` writes it. Throws the
    /// `EncodingError` of ``JSONValueEncoder`` (or whatever the value's `encode(to:)` throws).
    package static func encode(_ value: some Encodable, pretty: Bool = false) throws -> [UInt8] {
        serialize(try JSONValueEncoder().encode(value), pretty: pretty)
    }

    /// Decodes a `Decodable` value from JSON text. Text that is not JSON is a
    /// `DecodingError.dataCorrupted` whose underlying error is the ``JSONParseError``;
    /// everything else is as ``JSONValueDecoder`` throws it.
    package static func decode<T: Decodable>(_ type: T.Type, from utf8: some Collection<UInt8>) throws -> T {
        let value: JSONValue
        do {
            value = try parse(utf8)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [], debugDescription: "not JSON: \(error)", underlyingError: error))
        }
        return try JSONValueDecoder().decode(type, from: value)
    }

    /// Decodes a `Decodable` value from a parsed one.
    package static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try JSONValueDecoder().decode(type, from: value)
    }
}
