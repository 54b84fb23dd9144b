/// Reads the response to one request: skips interim 1xx responses, then reads the final head and
/// its body by the framing it declares, keeping the body within the client's limit and all heads
/// together (and chunked trailers) within `maxHeadBytes`.
enum ResponseReader {
    /// The most header bytes accepted for one response, interim heads and trailers included.
    static let maxHeadBytes = 64 * 1024
    /// The longest chunk-size line (the size in hex and any chunk extensions).
    static let maxChunkLineBytes = 1024

    static func read(
        from reader: inout BufferedReader, method: String, maxBodyBytes: Int
    ) throws(HTTPError) -> HTTPResponse {
        var budget = maxHeadBytes
        while true {
            let head = try ResponseHead.read(from: &reader, budget: &budget)
            if head.status == 101 { throw .badResponse("101 Switching Protocols, but no upgrade was asked for") }
            // 100 Continue, 102 Processing, 103 Early Hints: the final response follows.
            if (100...199).contains(head.status) { continue }
            var body: [UInt8] = []
            switch try BodyFraming.of(head, method: method) {
            case .none:
                break
            case .length(let length):
                guard length <= maxBodyBytes else { throw .responseTooLarge(limit: maxBodyBytes) }
                body.reserveCapacity(length)
                try reader.readExactly(length, into: &body, what: "the response body")
            case .chunked:
                try readChunked(from: &reader, into: &body, limit: maxBodyBytes, budget: budget)
            case .untilClose:
                try reader.readToEnd(into: &body, limit: maxBodyBytes)
            }
            return HTTPResponse(status: head.status, reason: head.reason, headers: head.headers, body: body)
        }
    }

    /// Chunks until the zero-size one, then the trailer fields (read and dropped, charged to
    /// the heads' budget), decoded by the `ChunkedDecoder` the collector reads requests with.
    private static func readChunked(
        from reader: inout BufferedReader, into body: inout [UInt8], limit: Int, budget: Int
    ) throws(HTTPError) {
        var decoder = ChunkedDecoder(bodyLimit: limit, maxSizeLineBytes: maxChunkLineBytes, maxTrailerBytes: budget)
        while true {
            do {
                reader.skip(try decoder.consume(reader.buffered))
            } catch {
                throw Self.error(error, limit: limit)
            }
            if decoder.isComplete { break }
            guard try reader.fill() else {
                let part =
                    switch decoder.awaiting {
                    case .size: "a chunk size"
                    case .data: "a chunk"
                    case .trailers: "the trailer fields"
                    }
                throw .badResponse("the connection closed in the middle of \(part)")
            }
        }
        body = decoder.body
    }

    private static func error(_ failure: ChunkedDecoder.ChunkedBodyError, limit: Int) -> HTTPError {
        switch failure {
        case .sizeLineTooLong: .badResponse("a chunk size line longer than \(maxChunkLineBytes) bytes")
        case .invalidSize: .badResponse("an invalid chunk size")
        case .bodyTooLarge: .responseTooLarge(limit: limit)
        case .dataLongerThanSize: .badResponse("chunk data longer than its size")
        case .trailersTooLarge: .badResponse("response headers larger than \(maxHeadBytes) bytes")
        }
    }
}
