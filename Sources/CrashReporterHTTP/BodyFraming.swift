/// How the end of a response body is found (RFC 9112, section 6.3): no body at all, a
/// `Content-Length`, chunked transfer coding, or the end of the connection.
enum BodyFraming: Equatable {
    case none
    case length(Int)
    case chunked
    case untilClose

    /// The framing of the response to a request with `method`. `Transfer-Encoding` wins over
    /// `Content-Length`; a transfer coding that does not end in `chunked` is read to the close;
    /// `Content-Length` values that disagree or are not numbers make the response unusable
    /// (`HTTPHeaders.contentLength`, which the collector reads requests with too).
    static func of(_ head: ResponseHead, method: String) throws(HTTPError) -> BodyFraming {
        if method == "HEAD" || head.status == 204 || head.status == 304 || (100...199).contains(head.status) {
            return .none
        }
        let codings = head.headers.transferCodings
        if !codings.isEmpty { return codings.last == "chunked" ? .chunked : .untilClose }
        switch head.headers.contentLength {
        case .absent: return .untilClose
        case .invalid: throw .badResponse("an invalid Content-Length")
        // More than any body the client accepts: the reader answers `responseTooLarge`.
        case .tooLarge: return .length(Int.max)
        case .bytes(let length): return .length(length)
        }
    }
}
