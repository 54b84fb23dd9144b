/// A typed parameter value: what the events API accepts as a flat property.
public enum TrackingValue: Sendable, Hashable {
    /// Text, scrubbed of e-mail addresses, IP addresses, card numbers and tokens when tracked.
    case string(String)
    /// A whole number.
    case int(Int)
    /// A number with a fraction.
    case double(Double)
    /// A flag.
    case bool(Bool)

    /// The value as breadcrumb text (`true`, `42`, `3.5`, or the string itself).
    public var text: String {
        switch self {
        case .string(let value): return value
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .bool(let value): return value ? "true" : "false"
        }
    }
}

extension TrackingValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

/// Something the service tracks. Describe a service's events as one exhaustive enum and map
/// each case to a name and parameters in one place:
///
/// ```swift
/// enum OrdersEvent: TrackingEvent {
///     case orderPlaced(items: Int, express: Bool)
///     case refundIssued
///
///     var name: String {
///         switch self {
///         case .orderPlaced: "order_placed"
///         case .refundIssued: "refund_issued"
///         }
///     }
///     var parameters: [String: TrackingValue] {
///         switch self {
///         case .orderPlaced(let items, let express): ["items": .int(items), "express": .bool(express)]
///         case .refundIssued: [:]
///         }
///     }
/// }
/// ```
///
/// A name must match `^[A-Za-z0-9_.:-]{1,64}$` (so it never starts with `$`); an event with
/// any other name is dropped. Parameter values are scrubbed of personal data before they
/// reach a breadcrumb or a provider, but the best value is one that never held any: send
/// `hasColor: true`, not the colour, and never free text a user typed.
public protocol TrackingEvent {
    /// The event's name, e.g. `order_placed` or `Orders.Place`.
    var name: String { get }
    /// Flat typed parameters; empty by default.
    var parameters: [String: TrackingValue] { get }
}

extension TrackingEvent {
    public var parameters: [String: TrackingValue] { [:] }
}

/// An event made on the spot, for the few that do not belong to a service's own enum (the
/// tracker's `analytics_opted_in` and `analytics_opted_out` are two).
public struct NamedEvent: TrackingEvent, Sendable, Hashable {
    public var name: String
    public var parameters: [String: TrackingValue]

    /// An event named `name` (``EventName``'s rule) with `parameters`.
    public init(_ name: String, parameters: [String: TrackingValue] = [:]) {
        self.name = name
        self.parameters = parameters
    }
}
