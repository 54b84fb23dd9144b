/// JSON Pointers (RFC 6901): how the report reader and the schema name a place in a document
/// (`/crash/threads/0/frames/3`).
package enum JSONPointer {
    /// One reference token: `~` as `~0`, `/` as `~1`.
    package static func escape(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        var out = ""
        for character in token.unicodeScalars {
            switch character {
            case "~": out += "~0"
            case "/": out += "~1"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// The pointer for a `Codable` coding path: array positions (keys named `Index N`, as
    /// ``JSONValueDecoder`` and `JSONDecoder` name them) by their number, members by their name
    /// (even when their coding key also has an integer value); `""` for an empty path.
    package static func pointer(codingPath: [any CodingKey]) -> String {
        var out = ""
        for key in codingPath {
            out += "/"
            if let index = key.intValue, key.stringValue == "Index \(index)" {
                out += String(index)
            } else {
                out += escape(key.stringValue)
            }
        }
        return out
    }
}
