/// One header field as it was written, name case kept.
public struct HTTPHeader: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Header fields in the order they were given or received, repeats kept (a server may send
/// `Set-Cookie` or Sentry's rate-limit header more than once). Look-ups ignore the case of the
/// name, as HTTP requires.
public struct HTTPHeaders: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    public private(set) var fields: [HTTPHeader]

    public init(_ fields: [HTTPHeader] = []) {
        self.fields = fields
    }

    /// The pairs in the order written; a name may repeat.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { HTTPHeader(name: $0.0, value: $0.1) }
    }

    /// The first value of `name`, compared without regard to case; nil when absent.
    public subscript(name: String) -> String? {
        fields.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    /// Every value of `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.equalsIgnoringASCIICase(name) }.map(\.value)
    }

    /// Whether any field is called `name` (any case).
    public func contains(_ name: String) -> Bool {
        fields.contains { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// Adds a field after the others.
    public mutating func append(_ name: String, _ value: String) {
        fields.append(HTTPHeader(name: name, value: value))
    }

    /// Adds `field` after the others.
    public mutating func append(_ field: HTTPHeader) {
        fields.append(field)
    }

    public var startIndex: Int { fields.startIndex }
    public var endIndex: Int { fields.endIndex }
    public subscript(position: Int) -> HTTPHeader { fields[position] }
}
