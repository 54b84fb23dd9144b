import Foundation
import TestSupport
import Testing

@testable import CrashReporterSupport

@Suite("JSON writer")
struct JSONWriterTests {
    static let fixedValues: [JSONValue] = [
        .null, true, false, 0, -1, .number(.int(.min)), .number(.int(.max)), .number(.uint(.max)),
        0.5, 1e-7, 123.0, -0.0, 1e15, 1e16, 0.1, 2.5e-8, 1e300, 9_007_199_254_740_992.0, -9_007_199_254_740_991.0,
        "", "a/b", "\"quoted\" \\ back", "\u{0}\u{1}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{1F} \u{7F}\u{80}\u{9F}",
        "é 日本 😀 \u{2028}\u{2029}\u{FEFF}", [], [:], [[]], [[:]], ["a": []], ["a": [:]], [[], [:], [[[]]]],
        ["b": 1, "a": [1, 2, ["c": "d"]], "B": .null, "_": true, "a10": 1, "a9": 2, "é": 3, "e": 4, "": 5],
        ["\u{212B}": 1, "\u{C6}": 2, "\u{C5}": 3, "e\u{301}": 4, "\u{E9}x": 5],
    ]

    @Test("writes fixed values as JSONEncoder does, compact and pretty", arguments: fixedValues)
    func fixedValuesMatchFoundation(value: JSONValue) throws {
        #expect(JSON.serialize(value) == (try foundationJSON(value, pretty: false)))
        #expect(JSON.serialize(value, pretty: true) == (try foundationJSON(value, pretty: true)))
    }

    @Test("writes random values as JSONEncoder does, compact and pretty")
    func randomValuesMatchFoundation() throws {
        var generator = SeededGenerator(seed: 2024)
        for _ in 0..<3000 {
            let value = RandomJSON.value(&generator)
            let compact = JSON.serialize(value)
            let pretty = JSON.serialize(value, pretty: true)
            #expect(compact == (try foundationJSON(value, pretty: false)), "\(value)")
            #expect(pretty == (try foundationJSON(value, pretty: true)), "\(value)")
        }
    }

    @Test("writes every double as JSONEncoder does")
    func doublesMatchFoundation() throws {
        var generator = SeededGenerator(seed: 99)
        var doubles: [Double] = []
        for _ in 0..<20_000 { doubles.append(RandomJSON.double(&generator)) }
        let ours = JSON.serialize(.array(doubles.map { .number(.double($0)) }))
        #expect(ours == (try foundationJSON(doubles, pretty: false)))
    }

    @Test("escapes control characters with JSONEncoder's short forms and leaves / alone")
    func escaping() {
        var writer = JSONWriter()
        writer.string("a\"b\\c/d\ne\tf\rg\u{8}h\u{C}i\u{1}j\u{1F}k\u{7F}\u{85}")
        #expect(
            String(decoding: writer.bytes, as: UTF8.self) == #""a\"b\\c/d\ne\tf\rg\bh\fi\u0001j\u001fk"#
                + "\u{7F}\u{85}\"")
    }

    @Test("a value's description also escapes DEL and the C1 controls, for terminals")
    func description() {
        #expect(
            JSONValue.string("a\u{7F}b\u{85}c\u{9F}d\u{A0}e\u{1B}[2J").description == #""a\u007fb\u0085c\u009fd"#
                + "\u{A0}" + #"e\u001b[2J""#)
        #expect(JSONValue.number(.double(123)).description == "123")
        #expect(JSONValue.number(.double(1e-7)).description == "1e-07")
        #expect(JSONValue.object(["b": [1, .null], "a": "x"]).description == #"{"a":"x","b":[1,null]}"#)
        #expect(JSONNumber.uint(.max).description == "18446744073709551615")
    }

    @Test("the appending calls write what they say, without a String per piece")
    func appending() throws {
        var writer = JSONWriter(capacity: 16)
        writer.raw("{\"n\":")
        writer.unsigned(0)
        writer.raw(",\"m\":")
        writer.unsigned(.max)
        writer.raw(",\"s\":")
        writer.signed(.min)
        writer.raw(",\"d\":")
        writer.double(.nan)
        writer.raw(",\"t\":")
        writer.timestamp(Timestamp(milliseconds: 1_792_756_671_512))
        writer.raw(",\"u\":")
        writer.uuid(UUIDBytes(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210))
        writer.raw(",\"b\":")
        "xy".utf8.withContiguousStorageIfAvailable { writer.string(utf8: $0) }
        writer.byte(UInt8(ascii: "}"))
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(
            text == #"{"n":0,"m":18446744073709551615,"s":-9223372036854775808,"d":null,"#
                + #""t":"2026-10-23T11:57:51.512Z","u":"01234567-89ab-cdef-fedc-ba9876543210","b":"xy"}"#)
        #expect(try JSON.parse(writer.bytes)["m"] == .number(.uint(.max)))
    }

    @Test("strings that are not native (bridged from Foundation) are written the same")
    func bridgedStrings() {
        let native = "naïve/日本\n"
        let bridged = NSString(string: native) as String
        var a = JSONWriter()
        a.string(native)
        var b = JSONWriter()
        b.string(bridged)
        #expect(a.bytes == b.bytes)
        #expect(a.bytes == Array(#""naïve/日本\n""#.utf8))
    }
}
