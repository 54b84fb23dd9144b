/// A coding key for the bridge's own use: array positions in coding paths (`Index 3`, with an
/// `intValue`, as `JSONDecoder` names them) and the `super` key of superencoders.
package struct JSONCodingKey: CodingKey, Sendable, Hashable {
    package var stringValue: String
    package var intValue: Int?

    package init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    package init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }

    /// The key of an array element.
    package init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    /// The key that `superEncoder()` and `superDecoder()` use.
    package static let `super` = JSONCodingKey(stringValue: "super")
}
