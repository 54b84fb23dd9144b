/// How the end of a response body is found (RFC 9112, section 6.3): no body at all, a
/// `Content-Length`, chunked transfer coding, or the end of the connection.
enum BodyFraming: Equatable {
    case none
    case length(Int)
    case chunked
    case untilClose

    /// The framing of the response to a request with `method`. `Transfer-Encoding` wins over
    /// `Content-Length`; a transfer coding that does not end in `chunked` is read to the close;
    /// `Content-Length` values that disagree or are not numbers make the response unusable.
    static func of(_ head: ResponseHead, method: String) throws(HTTPError) -> BodyFraming {
        if method == "HEAD" || head.status == 204 || head.status == 304 || (100...199).contains(head.status) {
            return .none
        }
        let codings = head.headers.values(for: "Transfer-Encoding").flatMap { $0.split(separator: ",") }
            .map { String($0).trimmedHTTPWhitespace.lowercased() }
        if !codings.isEmpty { return codings.last == "chunked" ? .chunked : .untilClose }
        let lengths = head.headers.values(for: "Content-Length").flatMap { $0.split(separator: ",") }
            .map { String($0).trimmedHTTPWhitespace }
        guard let first = lengths.first else { return .untilClose }
        guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.utf8.count <= 18,
            first.utf8.allSatisfy(\.isASCIIDigit), let length = Int(first)
        else {
            throw .badResponse("an invalid Content-Length")
        }
        return .length(length)
    }
}
