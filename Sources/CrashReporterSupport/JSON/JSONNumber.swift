/// A JSON number: exact for every 64-bit integer, a finite `Double` otherwise.
///
/// The parser keeps integer literals that fit 64 bits as `.int` or `.uint` (JSON has no size
/// limit, a report's ids and addresses need all 64 bits), and everything with a fraction or an
/// exponent as `.double`. Comparison is by numeric value and exact across the cases, so
/// `.int(1) == .double(1.0)`, and `.int(2^53 + 1) != .double(2^53)`.
package enum JSONNumber: Sendable, Hashable, Comparable, CustomStringConvertible {
    case int(Int64)
    /// Only for values above `Int64.max`; smaller ones are always `.int`.
    case uint(UInt64)
    /// Always finite: JSON has no NaN or infinity.
    case double(Double)

    package init(_ value: Int64) { self = .int(value) }

    package init(_ value: Int) { self = .int(Int64(value)) }

    /// `.int` when the value fits, so that there is one form per integer.
    package init(_ value: UInt64) {
        self = value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value)
    }

    /// `nil` for NaN and infinities, which JSON cannot hold. Integral values stay `.double`
    /// (and are written as JSONEncoder writes that `Double`).
    package init?(_ value: Double) {
        guard value.isFinite else { return nil }
        self = .double(value)
    }

    /// Whether the value has no fraction (`1.0` and `1e3` are integers, as JSON Schema says).
    package var isInteger: Bool {
        switch self {
        case .int, .uint: true
        case .double(let value): value.rounded(.towardZero) == value
        }
    }

    /// The value as a `Double`, rounded to the nearest one for large integers.
    package var doubleValue: Double {
        switch self {
        case .int(let value): Double(value)
        case .uint(let value): Double(value)
        case .double(let value): value
        }
    }

    /// The value as `T` when it is an integer that `T` holds exactly; `nil` when it has a
    /// fraction or is out of `T`'s range.
    package func exactly<T: FixedWidthInteger>(_ type: T.Type = T.self) -> T? {
        switch self {
        case .int(let value): T(exactly: value)
        case .uint(let value): T(exactly: value)
        case .double(let value): T(exactly: value)
        }
    }

    /// The value in a canonical form for comparing and hashing: integers that fit 64 bits as
    /// `.int` / `.uint`, other doubles as they are.
    private var canonical: JSONNumber {
        guard case .double(let value) = self else { return self }
        if let exact = Int64(exactly: value) { return .int(exact) }
        if let exact = UInt64(exactly: value) { return .uint(exact) }
        return self
    }

    package static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        switch (lhs.canonical, rhs.canonical) {
        case let (.int(l), .int(r)): l == r
        case let (.uint(l), .uint(r)): l == r
        case let (.double(l), .double(r)): l == r
        default: false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch canonical {
        case .int(let value): hasher.combine(value)
        case .uint(let value): hasher.combine(value)
        case .double(let value): hasher.combine(value)
        }
    }

    /// Exact: an integer and a double are compared without rounding the integer.
    package static func < (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        switch (lhs.canonical, rhs.canonical) {
        case let (.int(l), .int(r)): l < r
        case let (.uint(l), .uint(r)): l < r
        case (.int, .uint): true
        case (.uint, .int): false
        case let (.double(l), .double(r)): l < r
        case let (.double(l), .int(r)): Self.less(l, than: r)
        case let (.double(l), .uint(r)): Self.less(l, than: r)
        case let (.int(l), .double(r)): Self.less(l, than: r)
        case let (.uint(l), .double(r)): Self.less(l, than: r)
        }
    }

    /// `double < integer` for a double that is not an integer of the integer's type (the
    /// canonical form guarantees that), so comparing with the integer's bounds decides
    /// without rounding it.
    private static func less<I: FixedWidthInteger>(_ double: Double, than integer: I) -> Bool {
        if double < Double(I.min) { return true }
        if double >= Double(I.max) { return false }  // Double(I.max) rounds up to a power of two
        let whole = I(double.rounded(.down))
        return whole < integer
    }

    /// `integer < double`, by the same reasoning.
    private static func less<I: FixedWidthInteger>(_ integer: I, than double: Double) -> Bool {
        if double < Double(I.min) { return false }
        if double >= Double(I.max) { return true }
        let whole = I(double.rounded(.down))
        return integer <= whole
    }

    /// The number as JSON text, exactly as JSONEncoder writes it (see ``JSONWriter/number(_:)``).
    package var description: String {
        var writer = JSONWriter(capacity: 24)
        writer.number(self)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
