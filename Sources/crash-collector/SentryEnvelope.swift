import Foundation

/// A Sentry envelope (develop.sentry.dev, "Envelopes"): a header line of JSON, then items, each
/// an item-header line of JSON and a payload. With `length` in the item header the payload is
/// that many bytes (followed by a newline or the end); without it, the payload runs to the next
/// newline. Newlines are LF; an empty line at the end is allowed.
struct SentryEnvelope: Sendable, Equatable {
    struct Item: Sendable, Equatable {
        var header: [String: JSON]
        var payload: Data
        var type: String { header["type"]?.stringValue ?? "" }
    }

    var header: [String: JSON]
    var items: [Item]

    struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static let maxItems = 1000

    static func parse(_ data: Data) throws(ParseError) -> SentryEnvelope {
        let bytes = [UInt8](data)
        var position = 0

        func line() -> ArraySlice<UInt8>? {
            guard position < bytes.count else { return nil }
            let end = bytes[position...].firstIndex(of: 0x0a) ?? bytes.count
            let slice = bytes[position..<end]
            position = min(bytes.count, end + 1)
            return slice
        }

        guard let headerLine = line(), let header = JSON.parse(Data(headerLine))?.objectValue else {
            throw ParseError("the envelope header is not a JSON object")
        }
        var items: [Item] = []
        while position < bytes.count {
            guard let itemLine = line() else { break }
            if itemLine.isEmpty {
                // Only trailing newlines may be empty: an item header is never an empty line.
                if bytes[position...].allSatisfy({ $0 == 0x0a }) { break }
                throw ParseError("empty line where an item header was expected")
            }
            guard let itemHeader = JSON.parse(Data(itemLine))?.objectValue else {
                throw ParseError("item \(items.count): the item header is not a JSON object")
            }
            guard case .string(let type)? = itemHeader["type"], !type.isEmpty else {
                throw ParseError("item \(items.count): the item header has no type")
            }
            let payload: Data
            switch itemHeader["length"] {
            case .int(let length)?:
                guard length >= 0, length <= bytes.count - position else {
                    throw ParseError("item \(items.count): length \(length) runs past the end of the envelope")
                }
                payload = Data(bytes[position..<position + Int(length)])
                position += Int(length)
                if position < bytes.count {
                    guard bytes[position] == 0x0a else {
                        throw ParseError("item \(items.count): the payload is not followed by a newline")
                    }
                    position += 1
                }
            case nil, .null?:
                payload = Data(line() ?? [])
            default:
                throw ParseError("item \(items.count): length is not a non-negative integer")
            }
            items.append(Item(header: itemHeader, payload: payload))
            if items.count > maxItems { throw ParseError("more than \(maxItems) items") }
        }
        return SentryEnvelope(header: header, items: items)
    }

    /// An event id in Sentry's form: 32 lower-case hex digits (dashes removed), or nil.
    static func normalizedEventID(_ text: String?) -> String? {
        guard let text else { return nil }
        let hex = text.replacingOccurrences(of: "-", with: "").lowercased()
        let dashed = text.count == 36 && ReportID.isValid(text)
        guard hex.count == 32, hex.utf8.allSatisfy(ReportID.isHex), dashed || text.count == 32 else { return nil }
        return hex
    }
}

/// `X-Sentry-Auth: Sentry sentry_version=7, sentry_key=..., sentry_client=...`.
enum SentryAuth {
    /// The `sentry_key` of the header, or of the `sentry_key` query parameter.
    static func key(header: String?, query: [String: String]) -> String? {
        if let header {
            var text = Substring(header).drop { $0 == " " }
            if text.lowercased().hasPrefix("sentry ") { text = text.dropFirst("sentry ".count) }
            for pair in text.split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == "sentry_key" {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return query["sentry_key"]
    }
}
