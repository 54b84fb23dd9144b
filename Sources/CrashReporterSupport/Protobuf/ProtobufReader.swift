/// Reads Protocol Buffers wire format one field at a time, for the few messages the project
/// decodes (OTLP's export request and response). Unknown fields are the caller's to skip (it
/// just asks for the next one), as the format wants; a truncated field, a varint longer than
/// ten bytes, a field number of 0 or a group is an error that says where it is.
package struct ProtobufReader: Sendable {
    /// A field's value, by its wire type.
    package enum Value: Sendable, Equatable {
        case varint(UInt64)
        case fixed64(UInt64)
        case lengthDelimited(ArraySlice<UInt8>)
        case fixed32(UInt32)
    }

    private let bytes: ArraySlice<UInt8>
    private var offset: Int

    package init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        offset = bytes.startIndex
    }

    package init(_ bytes: [UInt8]) { self.init(bytes[...]) }

    /// The next field, nil at the end of the message.
    package mutating func next() throws(ProtobufError) -> (field: Int, value: Value)? {
        guard offset < bytes.endIndex else { return nil }
        let start = offset
        let key = try varint()
        let field = key >> 3
        guard field > 0, field <= 536_870_911 else {
            throw ProtobufError(offset: start, reason: "field number \(field)")
        }
        switch key & 7 {
        case 0: return (Int(field), .varint(try varint()))
        case 1: return (Int(field), .fixed64(try fixed(8)))
        case 2:
            let length = try varint()
            guard length <= UInt64(bytes.endIndex - offset) else {
                throw ProtobufError(offset: start, reason: "field \(field) is longer than the message")
            }
            let end = offset + Int(length)
            defer { offset = end }
            return (Int(field), .lengthDelimited(bytes[offset..<end]))
        case 5: return (Int(field), .fixed32(UInt32(try fixed(4))))
        default: throw ProtobufError(offset: start, reason: "field \(field) has wire type \(key & 7)")
        }
    }

    private mutating func varint() throws(ProtobufError) -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: UInt64(0), to: 70, by: 7) {
            guard offset < bytes.endIndex else { throw ProtobufError(offset: offset, reason: "truncated varint") }
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return value }
        }
        throw ProtobufError(offset: offset, reason: "varint longer than ten bytes")
    }

    private mutating func fixed(_ count: Int) throws(ProtobufError) -> UInt64 {
        guard bytes.endIndex - offset >= count else {
            throw ProtobufError(offset: offset, reason: "truncated \(count * 8)-bit field")
        }
        var value: UInt64 = 0
        for index in 0..<count { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        offset += count
        return value
    }
}

extension ProtobufReader.Value {
    /// The UTF-8 text of a `string` field; nil for another wire type or text that is not UTF-8.
    package var string: String? {
        guard case .lengthDelimited(let slice) = self else { return nil }
        return String(validating: slice, as: UTF8.self)
    }

    /// The field's bits as a signed integer (`int64`, `int32`, an enum), nil for a
    /// length-delimited field.
    package var integer: Int64? {
        switch self {
        case .varint(let value), .fixed64(let value): Int64(bitPattern: value)
        case .fixed32(let value): Int64(Int32(bitPattern: value))
        case .lengthDelimited: nil
        }
    }
}

/// Bytes that are not a well-formed protobuf message: where and why.
package struct ProtobufError: Error, Sendable, Equatable, CustomStringConvertible {
    package var offset: Int
    package var reason: String

    package init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    package var description: String { "malformed protobuf at byte \(offset): \(reason)" }
}
