import CrashReporterSupport
import Testing

/// The protobuf wire helpers, against the encoding guide's own examples.
@Suite("Protobuf wire format")
struct ProtobufTests {
    @Test("varints as the encoding guide has them: 150 is 96 01, -1 takes ten bytes")
    func varints() {
        var writer = ProtobufWriter()
        writer.integer(1, 150)
        #expect(writer.bytes == [0x08, 0x96, 0x01])
        var negative = ProtobufWriter()
        negative.integer(2, -1)
        #expect(negative.bytes == [0x10] + Array(repeating: 0xff, count: 9) + [0x01])
        var text = ProtobufWriter()
        text.string(2, "testing")
        #expect(text.bytes == [0x12, 0x07] + Array("testing".utf8))
    }

    @Test("every kind of field reads back, nested messages too")
    func roundTrip() throws {
        var writer = ProtobufWriter()
        writer.fixed64(1, 0x0102_0304_0506_0708)
        writer.bool(2, true)
        writer.double(4, 2.5)
        writer.message(5) { nested in
            nested.string(1, "héllo")
            nested.integer(3, Int64.min)
        }
        var reader = ProtobufReader(writer.bytes)
        var fields: [Int: ProtobufReader.Value] = [:]
        while let (field, value) = try reader.next() { fields[field] = value }
        #expect(fields[1] == .fixed64(0x0102_0304_0506_0708))
        #expect(fields[2] == .varint(1))
        #expect(fields[4] == .fixed64(2.5.bitPattern))
        guard case .lengthDelimited(let nested)? = fields[5] else {
            Issue.record("no nested message")
            return
        }
        var inner = ProtobufReader(nested)
        #expect(try inner.next()?.value.string == "héllo")
        #expect(try inner.next()?.value.integer == Int64.min)
        #expect(try inner.next() == nil)
    }

    @Test(
        "truncated fields, groups, field 0 and over-long varints are errors",
        arguments: [
            [0x0a, 0x05, 0x01], [0x08], [0x09, 0x01, 0x02], [0x0b], [0x00, 0x01],
            [0x08] + Array(repeating: 0xff, count: 11),
        ] as [[UInt8]])
    func malformed(bytes: [UInt8]) {
        var reader = ProtobufReader(bytes)
        #expect(throws: ProtobufError.self) { while try reader.next() != nil {} }
    }

    @Test("percent-decoding: escapes in either case, UTF-8 checked, a bad escape refused")
    func percentDecoding() {
        #expect(PercentDecoding.decode("Bearer%20a%2Cb%3d") == "Bearer a,b=")
        #expect(PercentDecoding.decode("caf%C3%A9+x") == "café+x")
        #expect(PercentDecoding.decode("%zz") == nil)
        #expect(PercentDecoding.decode("%C3") == nil)
        #expect(PercentDecoding.decode("50%") == nil)
    }
}
