import CrashReportFormat
import CrashReporterSupport
import Foundation

/// Reads a Sentry envelope, the body of `POST /api/<project>/envelope/` (docs/sentry.md,
/// "Envelope"): a header line (a JSON object), then items, each an item header line (a JSON
/// object with a `type`) followed by its payload. With a `length` the payload is exactly that
/// many bytes (it may contain newlines) and is followed by a newline or the end; without one it
/// runs to the next newline or the end. The final newline is optional. The JSON lines are read
/// with Support's parser; payloads are kept as bytes, for the endpoint to read as it needs.
package enum SentryEnvelopeParser {
    package enum EnvelopeParseError: Error, Sendable, Equatable, CustomStringConvertible {
        case empty
        case invalidHeader(String)
        /// Item `index` (from 0): its header line is not a JSON object.
        case invalidItemHeader(index: Int, reason: String)
        case missingItemType(index: Int)
        /// `length` is not a non-negative integer.
        case invalidLength(index: Int)
        /// `length` runs past the end of the envelope.
        case truncatedPayload(index: Int, length: Int, available: Int)
        /// Something other than a newline follows a payload of the given `length`.
        case missingNewline(index: Int)

        package var description: String {
            switch self {
            case .empty: "the envelope is empty"
            case .invalidHeader(let reason): "the envelope header is not a JSON object: \(Text.safe(reason))"
            case .invalidItemHeader(let index, let reason):
                "the header of item \(index) is not a JSON object: \(Text.safe(reason))"
            case .missingItemType(let index): "item \(index) has no type"
            case .invalidLength(let index): "item \(index) has a length that is not a non-negative integer"
            case .truncatedPayload(let index, let length, let available):
                "item \(index) declares \(length) bytes but only \(available) follow"
            case .missingNewline(let index): "item \(index)'s payload is not followed by a newline"
            }
        }
    }

    /// One item: its header's members and its payload.
    package typealias Item = (header: [String: JSONValue], payload: Data)

    package static func parse(_ data: Data) throws(EnvelopeParseError) -> (header: [String: JSONValue], items: [Item]) {
        let bytes = [UInt8](data)
        guard !bytes.isEmpty else { throw .empty }
        var position = 0

        func line() -> ArraySlice<UInt8> {
            let end = bytes[position...].firstIndex(of: 0x0a) ?? bytes.count
            let slice = bytes[position..<end]
            position = min(end + 1, bytes.count)
            return slice
        }

        let header: [String: JSONValue]
        switch object(line()) {
        case .success(let value): header = value
        case .failure(let reason): throw .invalidHeader(reason.text)
        }

        var items: [Item] = []
        while position < bytes.count {
            let index = items.count
            let itemHeader: [String: JSONValue]
            switch object(line()) {
            case .success(let value): itemHeader = value
            case .failure(let reason): throw .invalidItemHeader(index: index, reason: reason.text)
            }
            guard case .string(let type)? = itemHeader["type"], !type.isEmpty else {
                throw .missingItemType(index: index)
            }
            let payload: Data
            if let declared = itemHeader["length"] {
                // Strictly a number without a fraction: `true`, `1.5` and `"2"` are not lengths.
                guard case .number(let number) = declared, let length = number.exactly(Int.self), length >= 0 else {
                    throw .invalidLength(index: index)
                }
                let available = bytes.count - position
                guard length <= available else {
                    throw .truncatedPayload(index: index, length: length, available: available)
                }
                payload = Data(bytes[position..<(position + length)])
                position += length
                if position < bytes.count {
                    guard bytes[position] == 0x0a else { throw .missingNewline(index: index) }
                    position += 1
                }
            } else {
                payload = Data(line())
            }
            items.append((header: itemHeader, payload: payload))
        }
        return (header, items)
    }

    private struct Reason: Error {
        var text: String
    }

    private static func object(_ line: ArraySlice<UInt8>) -> Result<[String: JSONValue], Reason> {
        guard !line.isEmpty else { return .failure(Reason(text: "empty line")) }
        guard let value = try? JSON.parse(line) else { return .failure(Reason(text: "not JSON")) }
        guard case .object(let members) = value else { return .failure(Reason(text: "not an object")) }
        return .success(members)
    }
}
