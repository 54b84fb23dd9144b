/// A status line and its header fields. Reading one charges every byte to a budget shared by all
/// the heads of a response (interim 1xx ones included), so a server cannot make the client
/// collect headers without end.
struct ResponseHead {
    var status: Int
    var reason: String
    var headers: HTTPHeaders

    /// Reads `HTTP/1.x NNN reason` and the fields up to the empty line. Continuation lines
    /// (obsolete line folding) are joined to the field before them with a space, as RFC 9112 asks
    /// of a client.
    static func read(from reader: inout BufferedReader, budget: inout Int) throws(HTTPError) -> ResponseHead {
        let statusLine = try readLine(from: &reader, budget: &budget, what: "the status line")
        var head = try parseStatusLine(statusLine)
        while true {
            let line = try readLine(from: &reader, budget: &budget, what: "the response headers")
            if line.isEmpty { return head }
            if line[0].isHTTPWhitespace {
                guard let last = head.headers.fields.last else { throw .badResponse("a continuation line first") }
                var fields = head.headers.fields
                fields[fields.count - 1].value =
                    last.value + " " + String(decoding: line.trimmingHTTPWhitespace(), as: UTF8.self)
                head.headers = HTTPHeaders(fields)
                continue
            }
            do {
                try head.headers.append(HTTPHeader(line: line))
            } catch {
                throw .badResponse("a malformed header line")
            }
        }
    }

    private static func readLine(
        from reader: inout BufferedReader, budget: inout Int, what: String
    ) throws(HTTPError) -> [UInt8] {
        let tooLong = HTTPError.badResponse("response headers larger than \(ResponseReader.maxHeadBytes) bytes")
        guard budget > 0 else { throw tooLong }
        let line = try reader.readLine(limit: budget, tooLong: tooLong, what: what)
        budget -= line.count + 2
        return line
    }

    /// `HTTP/1.0 200 OK` or `HTTP/1.1 204` (the reason may be absent).
    private static func parseStatusLine(_ line: [UInt8]) throws(HTTPError) -> ResponseHead {
        let prefix = Array("HTTP/1.".utf8)
        guard line.count >= 12, line.starts(with: prefix), line[7].isASCIIDigit, line[8] == UInt8(ascii: " "),
            line[9...11].allSatisfy(\.isASCIIDigit), line.count == 12 || line[12] == UInt8(ascii: " ")
        else {
            let shown = String(decoding: line.prefix(40), as: UTF8.self)
            throw .badResponse("not an HTTP/1.x status line: '\(shown)'")
        }
        let status = line[9...11].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        let reason = line.count > 13 ? String(decoding: line[13...], as: UTF8.self) : ""
        return ResponseHead(status: status, reason: reason, headers: HTTPHeaders())
    }
}
