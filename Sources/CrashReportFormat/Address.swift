/// A 64-bit address. In a report's JSON it is a lower-case hex string with `0x`
/// (`"0x55d0c3a01234"`), because JSON numbers cannot carry 64-bit values exactly.
public struct Address: RawRepresentable, Sendable, Hashable, Comparable, Codable, CustomStringConvertible,
    ExpressibleByIntegerLiteral
{
    /// The address as a number.
    public var rawValue: UInt64

    /// The address `rawValue`.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// The address `value`.
    public init(_ value: UInt64) { self.rawValue = value }
    /// The address written as a number literal (`0x55d0c3a01234`).
    public init(integerLiteral value: UInt64) { self.rawValue = value }

    /// Parses the report's form: `0x` followed by 1 to 16 lower-case hex digits.
    public init?(hex text: String) {
        guard text.hasPrefix("0x") else { return nil }
        let digits = text.dropFirst(2)
        guard (1...16).contains(digits.count),
            digits.allSatisfy({ ("0"..."9").contains($0) || ("a"..."f").contains($0) }),
            let value = UInt64(digits, radix: 16)
        else { return nil }
        self.rawValue = value
    }

    /// The report's form: `0x` and the shortest lower-case hex digits (`0x0`, `0x10`).
    public var hex: String { "0x" + String(rawValue, radix: 16) }

    /// Sixteen hex digits (`0x000055d0c3a01234`), for columns.
    public var paddedHex: String {
        let digits = String(rawValue, radix: 16)
        return "0x" + String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The report's form, ``hex``.
    public var description: String { hex }

    /// Orders addresses by their value.
    public static func < (lhs: Address, rhs: Address) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Reads the report's form, a hex string (``init(hex:)``); anything else is a decoding error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let address = Address(hex: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "not an address (0x and 1 to 16 lower-case hex digits): \(text)")
        }
        self = address
    }

    /// Writes the report's form, ``hex``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}
