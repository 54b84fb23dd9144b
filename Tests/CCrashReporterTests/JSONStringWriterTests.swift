import CCrashReporter
import Foundation
import Testing

/// The handler's JSON string writer, through the same function the handler uses.
func jsonString(_ bytes: [UInt8], max: Int = 1000) throws -> (literal: String, decoded: String) {
    var buffer = [CChar](repeating: 0, count: 8 * bytes.count + 16)
    let length = bytes.withUnsafeBufferPointer { input in
        input.withMemoryRebound(to: CChar.self) { chars in
            scr_json_write_string(&buffer, buffer.count, chars.baseAddress, chars.count, max)
        }
    }
    try #require(length >= 0)
    let literal = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let decoded = try JSONDecoder().decode(String.self, from: Data(literal.utf8))
    return (literal, decoded)
}

@Suite("The handler's JSON string writer (C core)")
struct JSONStringWriterTests {
    @Test("escapes quotes, backslashes and control characters")
    func escapes() throws {
        let input = "a\"b\\c\nd\te\r\u{1}\u{1f}/z"
        let out = try jsonString(Array(input.utf8))
        #expect(out.decoded == input)
        #expect(out.literal == #""a\"b\\c\nd\te\r\u0001\u001f/z""#)
    }

    @Test("keeps valid UTF-8 and replaces invalid bytes so that the output always parses")
    func invalidUTF8() throws {
        #expect(try jsonString(Array("naïve 日本 🚀".utf8)).decoded == "naïve 日本 🚀")
        let bad: [UInt8] = [0x61, 0xff, 0x62, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0xe2, 0x82, 0x63, 0xc0, 0xaf]
        let out = try jsonString(bad)
        #expect(out.decoded.hasPrefix("a\u{FFFD}b"))
        #expect(!out.decoded.unicodeScalars.contains { (0xD800...0xDFFF).contains($0.value) })
    }

    @Test("truncates at the byte bound without splitting a character", arguments: 0...9)
    func truncates(max: Int) throws {
        let input = "añ日🚀"  // 1 + 2 + 3 + 4 bytes
        let out = try jsonString(Array(input.utf8), max: max)
        #expect(out.decoded.utf8.count <= max)
        #expect(input.hasPrefix(out.decoded))
        let expected = ["", "a", "a", "añ", "añ", "añ", "añ日", "añ日", "añ日", "añ日"][max]
        #expect(out.decoded == expected)
    }

    @Test("reports a buffer that is too small instead of overrunning it")
    func tooSmall() {
        var buffer = [CChar](repeating: 0, count: 4)
        #expect(scr_json_write_string(&buffer, buffer.count, "abcdef", 6, 100) == -1)
    }
}
