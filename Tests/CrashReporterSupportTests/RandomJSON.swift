import Foundation
import TestSupport

@testable import CrashReporterSupport

/// Random JSON values of every kind, for comparing with Foundation.
enum RandomJSON {
    /// Scalars that exercise every escaping rule: controls, quotes, slashes, DEL, C1, BOM,
    /// line separators, several UTF-8 lengths.
    static let interestingScalars: [Unicode.Scalar] =
        (0...0x20).map { Unicode.Scalar(UInt8($0)) } + [
            "\"", "\\", "/", "a", "Z", "~", "\u{7F}", "\u{80}", "\u{9F}", "\u{A0}", "é", "\u{2028}", "\u{2029}",
            "\u{FEFF}", "日", "\u{FFFD}", "\u{FFFF}", "😀", "\u{10FFFF}", "\u{0301}",
        ]

    static func string(_ generator: inout SeededGenerator, maxLength: Int = 12) -> String {
        var text = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...maxLength, using: &generator) {
            if Bool.random(using: &generator) {
                text.append(interestingScalars.randomElement(using: &generator)!)
            } else {
                let value = UInt32.random(in: 0x20...0x2FFFF, using: &generator)
                text.append(Unicode.Scalar(value) ?? "x")
            }
        }
        return String(text)
    }

    static func double(_ generator: inout SeededGenerator) -> Double {
        switch Int.random(in: 0..<6, using: &generator) {
        case 0:
            return [
                0.5, 1e-7, 123.0, -0.0, 0.1, 1e16, 1e15, 2.5e-8, 1e300, .leastNonzeroMagnitude, 9_007_199_254_740_994,
            ]
            .randomElement(using: &generator)!
        case 1: return Double(Int64.random(in: -1_000_000...1_000_000, using: &generator)) / 1000
        case 2:
            let value = Double(bitPattern: generator.next())
            return value.isFinite ? value : 1.5
        case 3: return Double(Int64.random(in: Int64.min...Int64.max, using: &generator))
        case 4: return Double.random(in: -1e20...1e20, using: &generator)
        default: return Double.random(in: 0..<1, using: &generator)
        }
    }

    static func value(_ generator: inout SeededGenerator, depth: Int = 0) -> JSONValue {
        let kinds = depth >= 4 ? 7 : 9
        switch Int.random(in: 0..<kinds, using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .number(.int(Int64.random(in: Int64.min...Int64.max, using: &generator)))
        case 3: return .number(.int(Int64.random(in: -1000...1000, using: &generator)))
        case 4: return .number(JSONNumber(UInt64.random(in: UInt64(Int64.max)...UInt64.max, using: &generator)))
        case 5: return .number(.double(double(&generator)))
        case 6: return .string(string(&generator))
        case 7:
            return .array(
                (0..<Int.random(in: 0...4, using: &generator)).map { _ in value(&generator, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...5, using: &generator) {
                members[string(&generator, maxLength: 6)] = value(&generator, depth: depth + 1)
            }
            return .object(members)
        }
    }
}

/// What Foundation's encoder writes for `value`.
func foundationJSON(_ value: some Encodable, pretty: Bool) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting =
        pretty
        ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        : [
            .sortedKeys, .withoutEscapingSlashes,
        ]
    return [UInt8](try encoder.encode(value))
}
