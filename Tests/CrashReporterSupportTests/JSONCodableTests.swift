import Foundation
import TestSupport
import Testing

@testable import CrashReporterSupport

/// A report-like shape with every kind of member the project encodes.
private struct Sample: Codable, Equatable {
    struct Frame: Codable, Equatable {
        var address: UInt64
        var symbol: String?
        var inlined: Bool
    }

    var id: String
    var count: Int
    var small: Int8
    var short: Int16
    var medium: Int32
    var large: Int64
    var byte: UInt8
    var unsignedShort: UInt16
    var unsignedMedium: UInt32
    var unsignedLarge: UInt64
    var unsigned: UInt
    var ratio: Double
    var single: Float
    var flag: Bool
    var note: String?
    var tags: [String]
    var frames: [Frame]
    var byName: [String: Frame]
    var maybe: [Frame?]
    var matrix: [[Int]]
    var byNumber: [Int: String]
    var payload: JSONValue
    var empty: [String: Int]

    static func make(_ generator: inout SeededGenerator) -> Sample {
        func frame() -> Frame {
            Frame(
                address: UInt64.random(in: 0...UInt64.max, using: &generator),
                symbol: Bool.random(using: &generator) ? RandomJSON.string(&generator) : nil,
                inlined: Bool.random(using: &generator))
        }
        return Sample(
            id: RandomJSON.string(&generator), count: Int.random(in: Int.min...Int.max, using: &generator),
            small: .random(in: .min ... .max, using: &generator), short: .random(in: .min ... .max, using: &generator),
            medium: .random(in: .min ... .max, using: &generator), large: .random(in: .min ... .max, using: &generator),
            byte: .random(in: .min ... .max, using: &generator),
            unsignedShort: .random(in: .min ... .max, using: &generator),
            unsignedMedium: .random(in: .min ... .max, using: &generator),
            unsignedLarge: .random(in: .min ... .max, using: &generator),
            unsigned: .random(in: .min ... .max, using: &generator), ratio: RandomJSON.double(&generator),
            single: [0.25, 0.1, -3.5, 1e-7, 1024].randomElement(using: &generator)!,
            flag: .random(using: &generator), note: Bool.random(using: &generator) ? "note/1" : nil,
            tags: (0..<Int.random(in: 0...3, using: &generator)).map { _ in RandomJSON.string(&generator) },
            frames: (0..<Int.random(in: 0...3, using: &generator)).map { _ in frame() },
            byName: ["main": frame(), "b/c": frame()], maybe: [frame(), nil], matrix: [[], [1, 2], [3]],
            byNumber: [1: "one", 20: "twenty"], payload: RandomJSON.value(&generator), empty: [:])
    }
}

/// Encodes through every kind of container, as hand-written `encode(to:)` methods do.
private struct Containers: Codable, Equatable {
    var name: String
    var values: [Int]
    var point: (x: Double, y: Double)
    var parentValue: Int
    var extra: Int?

    enum Keys: String, CodingKey { case name, nested, list, parent, extra }
    enum PointKeys: String, CodingKey { case x, y }

    static func == (lhs: Containers, rhs: Containers) -> Bool {
        lhs.name == rhs.name && lhs.values == rhs.values && lhs.point == rhs.point && lhs.parentValue == rhs.parentValue
            && lhs.extra == rhs.extra
    }

    init(name: String, values: [Int], point: (x: Double, y: Double), parentValue: Int, extra: Int?) {
        (self.name, self.values, self.point, self.parentValue, self.extra) = (name, values, point, parentValue, extra)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(name, forKey: .name)
        var nested = container.nestedContainer(keyedBy: PointKeys.self, forKey: .nested)
        try nested.encode(point.x, forKey: .x)
        try nested.encode(point.y, forKey: .y)
        var list = container.nestedUnkeyedContainer(forKey: .list)
        for value in values { try list.encode(value) }
        var inner = list.nestedUnkeyedContainer()
        try inner.encodeNil()
        var keyedInList = list.nestedContainer(keyedBy: PointKeys.self)
        try keyedInList.encode(Float(0.5), forKey: .x)
        var superInList = list.superEncoder().singleValueContainer()
        try superInList.encode("super in a list")
        var parent = container.superEncoder(forKey: .parent).singleValueContainer()
        try parent.encode(parentValue)
        var base = container.superEncoder().container(keyedBy: Keys.self)
        try base.encode("base", forKey: .name)
        try container.encodeIfPresent(extra, forKey: .extra)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        name = try container.decode(String.self, forKey: .name)
        let nested = try container.nestedContainer(keyedBy: PointKeys.self, forKey: .nested)
        point = (try nested.decode(Double.self, forKey: .x), try nested.decode(Double.self, forKey: .y))
        var list = try container.nestedUnkeyedContainer(forKey: .list)
        var values: [Int] = []
        while let value = try? list.decode(Int.self) { values.append(value) }
        self.values = values
        var inner = try list.nestedUnkeyedContainer()
        guard try inner.decodeNil(), inner.isAtEnd else { throw CocoaError(.coderReadCorrupt) }
        let keyedInList = try list.nestedContainer(keyedBy: PointKeys.self)
        guard try keyedInList.decode(Float.self, forKey: .x) == 0.5 else { throw CocoaError(.coderReadCorrupt) }
        guard try list.superDecoder().singleValueContainer().decode(String.self) == "super in a list", list.isAtEnd
        else { throw CocoaError(.coderReadCorrupt) }
        parentValue = try container.superDecoder(forKey: .parent).singleValueContainer().decode(Int.self)
        let base = try container.superDecoder().container(keyedBy: Keys.self)
        guard try base.decode(String.self, forKey: .name) == "base" else { throw CocoaError(.coderReadCorrupt) }
        extra = try container.decodeIfPresent(Int.self, forKey: .extra)
    }
}

@Suite("JSON Codable bridge")
struct JSONCodableTests {
    @Test("encodes as JSONEncoder does and round-trips through both coders")
    func samplesMatchFoundation() throws {
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<300 {
            let sample = Sample.make(&generator)
            let ours = try JSON.encode(sample)
            #expect(ours == (try foundationJSON(sample, pretty: false)))
            #expect(try JSON.encode(sample, pretty: true) == (try foundationJSON(sample, pretty: true)))
            #expect(try JSON.decode(Sample.self, from: ours) == sample)
            // Foundation reads `5.000609043175161e+18` into a JSONValue as the integer that the
            // decimal text names, not as the double it came from; compare the rest exactly.
            var viaFoundation = try JSONDecoder().decode(Sample.self, from: Data(ours))
            var expected = sample
            (viaFoundation.payload, expected.payload) = (.null, .null)
            #expect(viaFoundation == expected)
            #expect(try JSON.decode(Sample.self, from: try foundationJSON(sample, pretty: true)) == sample)
        }
    }

    @Test("nested, unkeyed and super containers write where JSONEncoder writes")
    func containers() throws {
        for extra in [nil, 7] as [Int?] {
            let value = Containers(name: "n", values: [1, 2, 3], point: (0.5, -2), parentValue: 9, extra: extra)
            let ours = try JSON.encode(value)
            #expect(ours == (try foundationJSON(value, pretty: false)))
            #expect(try JSON.decode(Containers.self, from: ours) == value)
            #expect(try JSONDecoder().decode(Containers.self, from: Data(ours)) == value)
        }
    }

    @Test("nil optionals are left out, explicit nils are null")
    func optionals() throws {
        struct Explicit: Encodable {
            var a: Int?
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: JSONCodingKey.self)
                try container.encode(a, forKey: JSONCodingKey(stringValue: "a"))
                try container.encodeNil(forKey: JSONCodingKey(stringValue: "b"))
            }
        }
        struct Implicit: Codable, Equatable { var a: Int? }
        #expect(try JSONValueEncoder().encode(Explicit(a: nil)) == ["a": .null, "b": .null])
        #expect(try JSONValueEncoder().encode(Implicit(a: nil)) == [:])
        #expect(try JSON.decode(Implicit.self, from: .object(["a": .null])) == Implicit(a: nil))
        #expect(try JSON.decode(Implicit.self, from: .object([:])) == Implicit(a: nil))
        #expect(try JSON.decode(Int?.self, from: .null) == nil)
        #expect(try JSON.decode([Int?].self, from: [1, .null]) == [1, nil])
    }

    @Test("integral numbers decode into every integer type that holds them")
    func integerWidths() throws {
        #expect(try JSON.decode(Int8.self, from: -128) == -128)
        #expect(try JSON.decode(UInt8.self, from: 255) == 255)
        #expect(try JSON.decode(Int16.self, from: .number(.int(Int64(Int16.min)))) == .min)
        #expect(try JSON.decode(UInt32.self, from: .number(.int(Int64(UInt32.max)))) == .max)
        #expect(try JSON.decode(UInt64.self, from: .number(.uint(.max))) == .max)
        #expect(try JSON.decode(UInt.self, from: .number(.uint(.max))) == .max)
        #expect(try JSON.decode(Int.self, from: JSON.parse("1e3")) == 1000)
        #expect(try JSON.decode(Int64.self, from: JSON.parse("-2.0")) == -2)
        #expect(try JSON.decode(Double.self, from: .number(.uint(.max))) == 18_446_744_073_709_551_615.0)
        #expect(try JSON.decode(Float.self, from: 0.1) == Float(0.1))
        #expect(try JSON.decode(JSONValue.self, from: ["a": 1]) == ["a": 1])
    }

    @Test(
        "errors carry the coding path and the kind JSONDecoder gives",
        arguments: [
            (#"{"a":{"b":[1,{"c":"x"}]}}"#, "typeMismatch", "/a/b/1/c"),
            (#"{"a":{"b":[1,{"c":null}]}}"#, "valueNotFound", "/a/b/1/c"),
            (#"{"a":{"b":[1,{}]}}"#, "keyNotFound", "/a/b/1"),
            (#"{"a":{"b":[1,{"c":300}]}}"#, "dataCorrupted", "/a/b/1/c"),
            (#"{"a":{"b":[1,{"c":-1}]}}"#, "dataCorrupted", "/a/b/1/c"),
            (#"{"a":{"b":[1,{"c":1.5}]}}"#, "dataCorrupted", "/a/b/1/c"),
            (#"{"a":{"b":[1,{"c":1, "d":"1"}]}}"#, "typeMismatch", "/a/b/1/d"),
            (#"{"a":{"b":["1"]}}"#, "typeMismatch", "/a/b/0"),
            (#"{"a":{"b":{}}}"#, "typeMismatch", "/a/b"),
            (#"{"a":[]}"#, "typeMismatch", "/a"),
            (#"{"a":{"b":[1,{"c":1}],"f":1e40}}"#, "dataCorrupted", "/a/f"),
            (#"{"a":{"b":[1,{"c":1}],"n":{"x/y":true}}}"#, "typeMismatch", "/a/n/x~1y"),
            (#"{"a":{"b":[1,{"c":1}],"n":{"k":"v"},"p":[1]}}"#, "valueNotFound", "/a/p/1"),
            (#"[]"#, "typeMismatch", ""),
        ])
    func errors(json: String, kind: String, pointer: String) throws {
        struct Leaf: Decodable {
            var c: UInt8
            var d: Int?
        }
        struct Pair: Decodable {
            var first: Int
            var second: Int
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                first = try container.decode(Int.self)
                second = try container.decode(Int.self)
            }
        }
        enum Element: Decodable {
            case number(Int)
            case leaf(Leaf)
            init(from decoder: any Decoder) throws {
                if let number = try? decoder.singleValueContainer().decode(Int.self) {
                    self = .number(number)
                } else {
                    self = .leaf(try decoder.singleValueContainer().decode(Leaf.self))
                }
            }
        }
        struct Inner: Decodable {
            var b: [Element]
            var f: Float?
            var n: [String: String]?
            var p: Pair?
        }
        struct Outer: Decodable { var a: Inner }

        let ours = try #require(decodingError { try JSON.decode(Outer.self, from: Array(json.utf8)) })
        let foundation = try #require(decodingError { try JSONDecoder().decode(Outer.self, from: Data(json.utf8)) })
        #expect(describe(ours).kind == kind)
        #expect(describe(ours).pointer == pointer)
        #expect(describe(foundation).kind == kind)
        // JSONDecoder leaves the path out of its number range errors; ours names the member.
        #expect(describe(foundation).pointer == (kind == "dataCorrupted" ? "" : pointer))
    }

    @Test("text that is not JSON is dataCorrupted, with the parser's error underneath")
    func notJSON() throws {
        let error = try #require(decodingError { try JSON.decode([Int].self, from: Array("[1,".utf8)) })
        guard case .dataCorrupted(let context) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(context.underlyingError is JSONParseError)
        #expect(context.debugDescription.contains("line 1, column 4"))
    }

    @Test("refuses to encode what JSON cannot hold, naming where it was")
    func encodingErrors() throws {
        struct Holder: Encodable { var values: [String: [Double]] }
        #expect {
            try JSONValueEncoder().encode(Holder(values: ["x": [1, .nan]]))
        } throws: { error in
            guard case .invalidValue(_, let context) = error as? EncodingError else { return false }
            return JSONPointer.pointer(codingPath: context.codingPath) == "/values/x/1"
        }
        struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(Nothing()) }
        // Nested, a value that encodes nothing is an empty object, as with JSONEncoder.
        #expect(try JSON.encode(["a": Nothing()]) == (try foundationJSON(["a": Nothing()], pretty: false)))
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(Float.infinity) }
    }

    @Test("userInfo reaches encode(to:) and init(from:)")
    func userInfo() throws {
        struct Unit: Codable {
            static let key = CodingUserInfoKey(rawValue: "unit")!
            var text: String
            init(text: String) { self.text = text }
            init(from decoder: any Decoder) throws { text = decoder.userInfo[Unit.key] as? String ?? "none" }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(encoder.userInfo[Unit.key] as? String ?? "none")
            }
        }
        var encoder = JSONValueEncoder()
        encoder.userInfo[Unit.key] = "ms"
        #expect(try encoder.encode([Unit(text: "")]) == ["ms"])
        var decoder = JSONValueDecoder()
        decoder.userInfo[Unit.key] = "s"
        #expect(try decoder.decode(Unit.self, from: .null).text == "s")
    }

    @Test("JSON pointers escape ~ and / and name array positions by number")
    func pointers() {
        #expect(JSONPointer.escape("a~b/c") == "a~0b~1c")
        #expect(
            JSONPointer.pointer(codingPath: [
                JSONCodingKey(stringValue: "threads"), JSONCodingKey(index: 2), JSONCodingKey(intValue: 7),
            ]) == "/threads/2/7")
        #expect(JSONPointer.pointer(codingPath: []) == "")
    }

    private func decodingError(_ body: () throws -> Any) -> DecodingError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? DecodingError
        }
    }

    private func describe(_ error: DecodingError) -> (kind: String, pointer: String) {
        switch error {
        case .typeMismatch(_, let context): ("typeMismatch", JSONPointer.pointer(codingPath: context.codingPath))
        case .valueNotFound(_, let context): ("valueNotFound", JSONPointer.pointer(codingPath: context.codingPath))
        case .keyNotFound(_, let context): ("keyNotFound", JSONPointer.pointer(codingPath: context.codingPath))
        case .dataCorrupted(let context): ("dataCorrupted", JSONPointer.pointer(codingPath: context.codingPath))
        @unknown default: ("unknown", "")
        }
    }
}
