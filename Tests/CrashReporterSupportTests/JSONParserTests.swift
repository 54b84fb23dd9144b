import Foundation
import TestSupport
import Testing

@testable import CrashReporterSupport

@Suite("JSON parser")
struct JSONParserTests {
    @Test(
        "accepts RFC 8259 text",
        arguments: [
            ("null", JSONValue.null),
            (" true ", .bool(true)),
            ("\t\r\nfalse\n", .bool(false)),
            ("0", .number(.int(0))),
            ("-0", .number(.double(-0.0))),
            ("1.5", .number(.double(1.5))),
            ("-1.5e3", .number(.double(-1500))),
            ("1E+2", .number(.double(100))),
            ("25e-1", .number(.double(2.5))),
            ("9223372036854775807", .number(.int(.max))),
            ("-9223372036854775808", .number(.int(.min))),
            ("9223372036854775808", .number(.uint(9_223_372_036_854_775_808))),
            ("18446744073709551615", .number(.uint(.max))),
            ("18446744073709551616", .number(.double(18_446_744_073_709_551_616))),
            ("-9223372036854775809", .number(.double(-9_223_372_036_854_775_808))),
            ("1e308", .number(.double(1e308))),
            ("\"\"", .string("")),
            ("\"a/b\"", .string("a/b")),
            (#""\/\"\\\b\f\n\r\t""#, .string("/\"\\\u{8}\u{c}\n\r\t")),
            (#""\u00e9\u00C9\u0000""#, .string("éÉ\u{0}")),
            (#""\ud83d\ude00 \uD83D\uDE00""#, .string("😀 😀")),
            ("\"naïve 日本 🚀\"", .string("naïve 日本 🚀")),
            ("[]", .array([])),
            ("{}", .object([:])),
            (" [ 1 , [ 2 , [ ] ] ] ", .array([1, [2, []]])),
            (#"{"a":{"b":[true,null]},"c":"d"}"#, .object(["a": ["b": [true, .null]], "c": "d"])),
            (#"{"a":1,"a":2}"#, .object(["a": 2])),
        ])
    func accepts(text: String, expected: JSONValue) throws {
        #expect(try JSON.parse(text) == expected)
        #expect(try JSON.parse(Array(text.utf8)) == expected)
    }

    @Test("keeps the sign of -0 and the exact value of big integers")
    func exactNumbers() throws {
        guard case .number(.double(let zero)) = try JSON.parse("-0") else { Issue.record("not a double"); return }
        #expect(zero.sign == .minus)
        #expect(try JSON.parse("9007199254740993") != JSON.parse("9007199254740992"))
        #expect(try JSON.parse("9007199254740993") == .number(.int(9_007_199_254_740_993)))
    }

    @Test(
        "refuses what is not JSON, saying what and where",
        arguments: [
            ("", "unexpected end of input, expected a value", 1, 1),
            ("   ", "unexpected end of input, expected a value", 1, 4),
            ("{\n\"a\":1,\n", "unexpected end of input, expected a string key", 3, 1),
            ("[1,2", "unexpected end of input, expected ',' or ']'", 1, 5),
            ("[1,]", "a trailing comma is not allowed", 1, 4),
            (#"{"a":1,}"#, "a trailing comma is not allowed", 1, 8),
            ("[1 2]", "unexpected character '2', expected ',' or ']'", 1, 4),
            ("// c\n1", "unexpected character '/', expected a value", 1, 1),
            ("/* c */ 1", "unexpected character '/', expected a value", 1, 1),
            ("NaN", "unexpected character 'N', expected a value", 1, 1),
            ("-Infinity", "expected a digit after '-'", 1, 2),
            ("Infinity", "unexpected character 'I', expected a value", 1, 1),
            ("01", "a number cannot have a leading zero", 1, 1),
            ("-012", "a number cannot have a leading zero", 1, 1),
            ("1.", "unexpected end of input, expected a digit after '.'", 1, 3),
            (".5", "unexpected character '.', expected a value", 1, 1),
            ("1e", "unexpected end of input, expected a digit after the exponent", 1, 3),
            ("1e+x", "unexpected character 'x', expected a digit after the exponent", 1, 4),
            ("+1", "unexpected character '+', expected a value", 1, 1),
            ("-", "unexpected end of input, expected a digit", 1, 2),
            ("1e400", "the number 1e400 does not fit a double", 1, 1),
            ("[-1e400]", "the number -1e400 does not fit a double", 1, 2),
            ("'a'", "unexpected character ''', expected a value", 1, 1),
            ("\"abc", "unexpected end of input inside a string", 1, 5),
            ("\"a\tb\"", "unescaped control character U+0009 in a string", 1, 3),
            ("\"a\nb\"", "unescaped control character U+000A in a string", 1, 3),
            (#""\x""#, #"invalid escape '\x' in a string"#, 1, 2),
            (#""\u12""#, "unexpected character '\"', expected a hexadecimal digit in a \\u escape", 1, 6),
            (#"["\ud800"]"#, #"lone surrogate \uD800: a high surrogate must be followed by a low one"#, 1, 3),
            (#""\udc00""#, #"lone surrogate \uDC00: a low surrogate without a high one"#, 1, 2),
            (#""\ud800\u0041""#, #"lone surrogate \uD800: a high surrogate must be followed by a low one"#, 1, 2),
            ("[1] [2]", "unexpected character '[' after the value", 1, 5),
            ("tru", "invalid literal, expected true", 1, 1),
            ("nul", "invalid literal, expected null", 1, 1),
            ("truex", "unexpected character 'x' after the value", 1, 5),
            ("{1:2}", "unexpected character '1', expected a string key", 1, 2),
            (#"{"a" 1}"#, "unexpected character '1', expected ':' after an object key", 1, 6),
            ("[\"é\", x]", "unexpected character 'x', expected a value", 1, 7),
            ("[\u{7}]", "unexpected character U+0007, expected a value", 1, 2),
            ("\u{FEFF}1", "unexpected character U+FEFF, expected a value", 1, 1),
            ("é", "unexpected character 'é', expected a value", 1, 1),
        ])
    func refuses(text: String, reason: String, line: Int, column: Int) {
        #expect(throws: JSONParseError.self) { try JSON.parse(text) }
        do {
            _ = try JSON.parse(text)
        } catch {
            #expect(error.reason == reason)
            #expect(error.line == line)
            #expect(error.column == column)
            #expect(error.description == "\(reason) at line \(line), column \(column)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test(
        "refuses invalid UTF-8 in strings",
        arguments: [
            [0x22, 0xFF, 0x22],  // never valid
            [0x22, 0xC0, 0xAF, 0x22],  // overlong '/'
            [0x22, 0xE0, 0x80, 0xAF, 0x22],  // overlong, three bytes
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // an encoded surrogate
            [0x22, 0xE2, 0x82, 0x22],  // truncated
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
            [0x22, 0x80, 0x22],  // a lone continuation byte
            [0x22, 0x61, 0xC3],  // truncated at the end of input
            [0x22, 0x5C, 0x6E, 0xFE, 0x22],  // after an escape
        ] as [[UInt8]])
    func refusesInvalidUTF8(bytes: [UInt8]) {
        #expect {
            try JSON.parse(bytes)
        } throws: { error in
            (error as? JSONParseError)?.reason.hasPrefix("invalid UTF-8") == true
        }
    }

    @Test("nests up to the depth limit and no deeper, without exhausting the stack")
    func depthLimit() throws {
        let limit = JSON.defaultDepthLimit
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        var value = try JSON.parse(deepest)
        var depth = 0
        while case .array(let elements) = value {
            depth += 1
            value = elements.first ?? .null
        }
        #expect(depth == limit)
        let objects = String(repeating: #"{"a":"#, count: limit) + "1" + String(repeating: "}", count: limit)
        #expect(try JSON.parse(objects) != .null)

        let tooDeep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        #expect(throws: JSONParseError.self) { try JSON.parse(tooDeep) }
        let hostile = String(repeating: #"{"a":["#, count: 200_000)
        #expect {
            try JSON.parse(hostile)
        } throws: { error in
            (error as? JSONParseError)?.reason == "more than 512 nested arrays and objects"
        }
        #expect(throws: JSONParseError.self) { try JSON.parse("[[[1]]]", depthLimit: 2) }
        #expect(try JSON.parse("[[1]]", depthLimit: 2) == [[1]])
    }

    @Test("refuses hostile nesting even on a thread with a small stack")
    func smallStack() throws {
        let done = Latch()
        let reason = Lock<String?>(nil)
        try DetachedThread.start(name: "small-stack", stackSize: 64 << 10) {
            let hostile = Array(String(repeating: "[{\"a\":", count: 100_000).utf8)
            do {
                _ = try JSON.parse(hostile)
            } catch {
                reason.withLock { $0 = (error as? JSONParseError)?.reason }
            }
            done.open()
        }
        #expect(done.wait(timeout: 60))
        #expect(reason.withLock { $0 } == "more than 512 nested arrays and objects")
    }

    @Test("reads what the writer wrote, for many random values")
    func roundTrips() throws {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<2000 {
            let value = RandomJSON.value(&generator)
            #expect(try JSON.parse(JSON.serialize(value)) == value)
            #expect(try JSON.parse(JSON.serialize(value, pretty: true)) == value)
        }
    }

    @Test("reads what Foundation wrote")
    func readsFoundation() throws {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<500 {
            let value = RandomJSON.value(&generator)
            let text = try JSONSerialization.data(withJSONObject: foundationObject(value), options: [.fragmentsAllowed])
            #expect(try JSON.parse(text) == value)
        }
    }

    @Test("parses from Data, slices and strings alike")
    func inputKinds() throws {
        let text = #"{"key":[1,"two",3.5]}"#
        let expected: JSONValue = ["key": [1, "two", 3.5]]
        #expect(try JSON.parse(Data(text.utf8)) == expected)
        #expect(try JSON.parse(Array(("xx" + text).utf8)[2...]) == expected)
        #expect(try JSON.parse(text) == expected)
        #expect(try JSON.parse(AnyCollection(Array(text.utf8))) == expected)
    }

    /// `value` as the objects `JSONSerialization` writes.
    private func foundationObject(_ value: JSONValue) -> Any {
        switch value {
        case .null: NSNull()
        case .bool(let flag): flag
        case .number(.int(let int)): NSNumber(value: int)
        case .number(.uint(let uint)): NSNumber(value: uint)
        case .number(.double(let double)): NSNumber(value: double)
        case .string(let text): text
        case .array(let elements): elements.map(foundationObject)
        case .object(let members): members.mapValues(foundationObject)
        }
    }
}
