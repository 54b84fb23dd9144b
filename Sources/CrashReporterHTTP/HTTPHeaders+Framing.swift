/// What a message's `Content-Length` fields say (RFC 9110, section 8.6). Read the same way for
/// a response the client receives and a request the collector receives.
package enum ContentLength: Sendable, Equatable {
    case absent
    /// Empty, not a decimal number, or values that disagree: the body cannot be framed.
    case invalid
    /// A number of more than 15 digits: larger than any body either side accepts.
    case tooLarge
    case bytes(Int)
}

extension HTTPHeaders {
    /// Every `Content-Length` value (a field may repeat, or list the same value with commas);
    /// all must be one number.
    package var contentLength: ContentLength {
        let values = values(for: "Content-Length")
        guard !values.isEmpty else { return .absent }
        let texts = Set(
            values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
                .map { String($0).trimmedHTTPWhitespace })
        guard texts.count == 1, let text = texts.first, !text.isEmpty, text.utf8.allSatisfy(\.isASCIIDigit) else {
            return .invalid
        }
        guard text.utf8.count <= 15, let length = Int(text) else { return .tooLarge }
        return .bytes(length)
    }

    /// The transfer codings of every `Transfer-Encoding` field, in order, lowercased.
    package var transferCodings: [String] {
        values(for: "Transfer-Encoding").flatMap { $0.split(separator: ",") }
            .map { String($0).trimmedHTTPWhitespace.lowercased() }
    }

    /// Whether a comma-separated header (`Connection`) lists `token`, in any case.
    package func contains(_ name: String, token: String) -> Bool {
        values(for: name).contains { value in
            value.split(separator: ",").contains { String($0).trimmedHTTPWhitespace.equalsIgnoringASCIICase(token) }
        }
    }
}

extension HTTPHeader {
    /// Why a line is not a header field.
    package enum LineFailure: Error, Sendable, Equatable {
        case noColon
        /// Empty, or a character that may not stand in a token.
        case invalidName
    }

    /// A `name: value` field line (without its line end), the value trimmed of the spaces and
    /// tabs around it.
    package init(line: some Collection<UInt8>) throws(LineFailure) {
        let bytes = Array(line)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { throw .noColon }
        guard colon > 0, bytes[..<colon].allSatisfy(\.isHTTPTokenCharacter) else { throw .invalidName }
        self.init(
            name: String(decoding: bytes[..<colon], as: UTF8.self),
            value: String(decoding: bytes[(colon + 1)...].trimmingHTTPWhitespace(), as: UTF8.self))
    }

    /// Whether `text` is a token (RFC 9110's `tchar`s): what a method or a field name must be.
    package static func isToken(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(\.isHTTPTokenCharacter)
    }
}
