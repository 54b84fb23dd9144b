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
                try readChunked(from: &reader, into: &body, limit: maxBodyBytes, budget: &budget)
            case .untilClose:
                try reader.readToEnd(into: &body, limit: maxBodyBytes)
            }
            return HTTPResponse(status: head.status, reason: head.reason, headers: head.headers, body: body)
        }
    }

    /// Chunks until the zero-size one, then the trailer fields (read and dropped).
    private static func readChunked(
        from reader: inout BufferedReader, into body: inout [UInt8], limit: Int, budget: inout Int
    ) throws(HTTPError) {
        let longLine = HTTPError.badResponse("a chunk size line longer than \(maxChunkLineBytes) bytes")
        while true {
            let line = try reader.readLine(limit: maxChunkLineBytes, tooLong: longLine, what: "a chunk size")
            let size = try chunkSize(line)
            if size == 0 { break }
            guard body.count + size <= limit else { throw .responseTooLarge(limit: limit) }
            try reader.readExactly(size, into: &body, what: "a chunk")
            let end = try reader.readLine(
                limit: 0, tooLong: .badResponse("chunk data longer than its size"), what: "a chunk")
            guard end.isEmpty else { throw .badResponse("chunk data longer than its size") }
        }
        let tooLong = HTTPError.badResponse("response headers larger than \(maxHeadBytes) bytes")
        while true {
            guard budget > 0 else { throw tooLong }
            let trailer = try reader.readLine(limit: budget, tooLong: tooLong, what: "the trailer fields")
            budget -= trailer.count + 2
            if trailer.isEmpty { return }
        }
    }

    /// The hexadecimal size before any `;extension`.
    private static func chunkSize(_ line: [UInt8]) throws(HTTPError) -> Int {
        let digits = line[..<(line.firstIndex(of: UInt8(ascii: ";")) ?? line.endIndex)].trimmingHTTPWhitespace()
        guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy(\.isASCIIHexDigit),
            let size = Int(String(decoding: digits, as: UTF8.self), radix: 16)
        else {
            throw .badResponse("an invalid chunk size")
        }
        return size
    }
}
