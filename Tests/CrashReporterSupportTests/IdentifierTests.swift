import Foundation
import Testing

@testable import CrashReporterSupport

@Suite("Identifiers")
struct IdentifierTests {
    @Test("random UUIDs are version 4, canonical, lower-case and read by Foundation")
    func random() {
        var seen = Set<UUIDBytes>()
        for _ in 0..<2000 {
            let id = UUIDBytes.random()
            #expect(id.version == 4)
            #expect(id.low >> 62 == 0b10)
            let text = id.description
            #expect(text == text.lowercased())
            #expect(UUIDBytes.isCanonical(text))
            #expect(UUID(uuidString: text)?.uuidString.lowercased() == text)
            seen.insert(id)
        }
        #expect(seen.count == 2000)
    }

    @Test("fast UUIDs are version 4 and never repeat")
    func fast() {
        var seen = Set<UUIDBytes>()
        for _ in 0..<200_000 {
            let id = UUIDBytes.fast()
            #expect(id.version == 4 && id.low >> 62 == 0b10)
            seen.insert(id)
        }
        #expect(seen.count == 200_000)
        #expect(UUID(uuidString: UUIDBytes.fast().description) != nil)
    }

    @Test("converts to and from Foundation's UUID")
    func foundation() throws {
        for _ in 0..<100 {
            let uuid = UUID()
            let ours = UUIDBytes(tuple: uuid.uuid)
            #expect(ours.description == uuid.uuidString.lowercased())
            #expect(UUID(uuid: ours.tuple) == uuid)
            #expect(UUIDBytes(uuid.uuidString) == ours)
        }
    }

    @Test(
        "accepts only the canonical 8-4-4-4-12 form",
        arguments: [
            ("123e4567-e89b-12d3-a456-426614174000", true), ("123E4567-E89B-12D3-A456-426614174000", true),
            ("00000000-0000-0000-0000-000000000000", true), ("123e4567e89b12d3a456426614174000", false),
            ("{123e4567-e89b-12d3-a456-426614174000}", false), ("123e4567-e89b-12d3-a456-42661417400", false),
            ("123e4567-e89b-12d3-a456-4266141740000", false), ("123e4567-e89b-12d3-a456-42661417400g", false),
            ("123e4567e-89b-12d3-a456-426614174000", false), ("", false),
            ("urn:uuid:123e4567-e89b-12d3-a456-426614174000", false), ("123e4567-e89b-12d3-a456_426614174000", false),
        ])
    func canonicalForm(text: String, valid: Bool) {
        #expect(UUIDBytes.isCanonical(text) == valid)
        if valid { #expect(UUIDBytes(text)?.description == text.lowercased()) }
        // The three ways in agree: a String, any other StringProtocol, UTF-8 bytes.
        #expect((UUIDBytes(text) != nil) == valid)
        #expect(UUIDBytes(Substring(text)) == UUIDBytes(text))
        #expect(Array(text.utf8).withUnsafeBufferPointer { UUIDBytes(utf8: $0) } == UUIDBytes(text))
    }

    @Test("a digit position takes exactly the hexadecimal digits, of either case")
    func everyByte() {
        let valid = Array("123e4567-e89b-12d3-a456-426614174000".utf8)
        for position in [0, 7, 9, 14, 19, 24, 35] {
            for byte in UInt8.min...UInt8.max {
                var bytes = valid
                bytes[position] = byte
                let parsed = bytes.withUnsafeBufferPointer { UUIDBytes(utf8: $0) }
                let isHexDigit =
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
                #expect((parsed != nil) == isHexDigit, "byte \(byte) at \(position)")
                if let parsed, byte < 0x80 {
                    #expect(parsed.description == String(decoding: bytes, as: UTF8.self).lowercased())
                }
            }
        }
    }
}
