/// Writes Protocol Buffers wire format (protobuf.dev/programming-guides/encoding): the few
/// field kinds OTLP's messages use, each with its field number. A nested message is written
/// with ``message(_:_:)``, whose closure fills a writer of its own; the writer then adds the
/// length prefix. Fields are written in the order they are called, and callers leave out a
/// field whose value is the default (proto3 does not send those).
package struct ProtobufWriter: Sendable {
    /// The encoded bytes so far.
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    /// A base-128 varint, low group first.
    package mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    private mutating func key(_ field: Int, _ wireType: ProtobufWireType) {
        varint(UInt64(field) << 3 | UInt64(wireType.rawValue))
    }

    /// `int64`, `uint64`, `int32`, `uint32` or an enum: a varint (a negative number takes ten
    /// bytes, as proto3 sends it).
    package mutating func integer(_ field: Int, _ value: Int64) {
        key(field, .varint)
        varint(UInt64(bitPattern: value))
    }

    package mutating func bool(_ field: Int, _ value: Bool) {
        key(field, .varint)
        varint(value ? 1 : 0)
    }

    /// `fixed64`: eight bytes, little-endian.
    package mutating func fixed64(_ field: Int, _ value: UInt64) {
        key(field, .fixed64)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// `double`: its IEEE 754 bits as a `fixed64`.
    package mutating func double(_ field: Int, _ value: Double) {
        fixed64(field, value.bitPattern)
    }

    /// `string`: UTF-8, length-prefixed.
    package mutating func string(_ field: Int, _ value: String) {
        var text = value
        text.withUTF8 { lengthDelimited(field, $0) }
    }

    /// `bytes`: length-prefixed.
    package mutating func bytes(_ field: Int, _ value: some Collection<UInt8>) {
        key(field, .lengthDelimited)
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// A nested message: what `body` writes, length-prefixed.
    package mutating func message(_ field: Int, _ body: (inout ProtobufWriter) -> Void) {
        var nested = ProtobufWriter(capacity: 64)
        body(&nested)
        bytes(field, nested.bytes)
    }

    private mutating func lengthDelimited(_ field: Int, _ buffer: UnsafeBufferPointer<UInt8>) {
        key(field, .lengthDelimited)
        varint(UInt64(buffer.count))
        bytes.append(contentsOf: buffer)
    }
}

/// The wire types of the protobuf encoding (3 and 4, the deprecated groups, are refused).
package enum ProtobufWireType: UInt8, Sendable {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case fixed32 = 5
}
