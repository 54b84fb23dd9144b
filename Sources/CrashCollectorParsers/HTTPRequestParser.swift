import CrashReporterHTTP
import CrashReporterSupport
import Foundation

/// Bounds on what one request may hold.
package struct HTTPLimits: Sendable {
    /// Request line plus header fields plus the blank line, in bytes (and the same for trailers).
    package var maxHeaderBytes = 16 * 1024
    package var maxHeaderCount = 100
    /// The longest chunk-size line of a chunked body, extensions included.
    package var maxChunkLineBytes = 1024
    /// The largest body (after removing the chunked coding) for a request with this head.
    package var maxBodyBytes: @Sendable (HTTPRequestHead) -> Int = { _ in 16 << 20 }

    package init(
        maxHeaderBytes: Int = 16 * 1024, maxHeaderCount: Int = 100, maxChunkLineBytes: Int = 1024,
        maxBodyBytes: @escaping @Sendable (HTTPRequestHead) -> Int = { _ in 16 << 20 }
    ) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxChunkLineBytes = maxChunkLineBytes
        self.maxBodyBytes = maxBodyBytes
    }
}

/// Why a request cannot be read; the status to answer with before closing the connection.
package struct HTTPParseError: Error, Sendable, Equatable {
    package var status: Int
    package var reason: String
    /// The head, when the failure came after it was read (a body too large, a bad chunk).
    package var head: HTTPRequestHead?

    package init(_ status: Int, _ reason: String, head: HTTPRequestHead? = nil) {
        self.status = status
        self.reason = reason
        self.head = head
    }
}

package enum HTTPParseResult: Sendable, Equatable {
    /// More bytes are needed.
    case incomplete
    case request(ReceivedRequest)
    /// The stream cannot go on: answer `status` and close.
    case failure(HTTPParseError)
}

/// An incremental HTTP/1.1 request parser. A request is a request line, `METHOD SP TARGET SP
/// HTTP/1.x`, then header fields, `name: value` one per line, then an empty line, then the body
/// its head frames; lines end in CRLF (a bare LF is accepted). Feed it bytes with ``append(_:)``
/// and take requests with ``next()``, one after the other, so pipelined requests work. Pure: no
/// I/O, no clocks. It never holds more than the header limit plus the body limit plus one read.
package struct HTTPRequestParser: Sendable {
    package let limits: HTTPLimits

    private var buffer: [UInt8] = []
    /// Bytes before this index are consumed.
    private var position = 0
    private var state: State = .head

    private enum State: Sendable {
        case head
        case body(HTTPRequestHead, remaining: Int)
        /// A chunked body, decoded by the HTTP model's decoder (the client's too).
        case chunked(HTTPRequestHead, ChunkedDecoder)
        case failed(HTTPParseError)
    }

    package init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
    }

    package mutating func append(_ bytes: some Sequence<UInt8>) {
        if position > 0 && position >= buffer.count / 2 {
            buffer.removeFirst(position)
            position = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Whether part of a request has arrived (bytes buffered or a head read): a timeout now
    /// interrupts a request rather than ending an idle keep-alive connection.
    package var isMidRequest: Bool {
        if case .head = state { return buffer[position...].contains { $0 != 0x0d && $0 != 0x0a } }
        return true
    }

    /// The head of a request whose body is still awaited (to answer `Expect: 100-continue`).
    package var headAwaitingBody: HTTPRequestHead? {
        switch state {
        case .body(let head, _), .chunked(let head, _): head
        case .head, .failed: nil
        }
    }

    /// The bytes the parser holds: its input buffer (consumed bytes not yet dropped included) and
    /// a chunked body decoded so far. The collector counts it against its memory budget.
    package var bufferedByteCount: Int {
        switch state {
        case .chunked(_, let decoder): buffer.count + decoder.body.count
        case .head, .body, .failed: buffer.count
        }
    }

    /// The next whole request, if the buffered bytes hold one.
    package mutating func next() -> HTTPParseResult {
        while true {
            switch step() {
            case .some(let result): return result
            case .none: continue
            }
        }
    }

    /// One state transition: a result, or nil to go on.
    private mutating func step() -> HTTPParseResult? {
        switch state {
        case .failed(let error):
            return .failure(error)
        case .head:
            switch parseHead() {
            case .incomplete: return .incomplete
            case .failure(let error): return fail(error)
            case .head(let head): return startBody(head)
            }
        case .body(let head, let remaining):
            guard buffer.count - position >= remaining else { return .incomplete }
            let body = Data(buffer[position..<position + remaining])
            position += remaining
            state = .head
            return .request(ReceivedRequest(head: head, body: body))
        case .chunked(let head, var decoder):
            do {
                position += try decoder.consume(buffer[position...])
            } catch {
                return fail(Self.error(error, head: head, limit: decoder.bodyLimit))
            }
            guard decoder.isComplete else {
                state = .chunked(head, decoder)
                return .incomplete
            }
            state = .head
            return .request(ReceivedRequest(head: head, body: Data(decoder.body)))
        }
    }

    /// What a chunked body that cannot be read is answered with.
    private static func error(_ failure: ChunkedDecoder.ChunkedBodyError, head: HTTPRequestHead, limit: Int)
        -> HTTPParseError
    {
        switch failure {
        case .sizeLineTooLong: HTTPParseError(400, "chunk size line too long", head: head)
        case .invalidSize: HTTPParseError(400, "invalid chunk size", head: head)
        case .bodyTooLarge: HTTPParseError(413, "request body larger than \(ByteCount.text(limit))", head: head)
        case .dataLongerThanSize: HTTPParseError(400, "chunk data not followed by CRLF", head: head)
        case .trailersTooLarge: HTTPParseError(400, "trailer section too large", head: head)
        }
    }

    private mutating func fail(_ error: HTTPParseError) -> HTTPParseResult {
        state = .failed(error)
        return .failure(error)
    }

    /// Decides how the body is framed once the head is read: with `Transfer-Encoding`, chunked
    /// (the only coding served; never together with `Content-Length`, never in HTTP/1.0); else
    /// with `Content-Length`, that many bytes (repeated values must agree); else there is none.
    private mutating func startBody(_ head: HTTPRequestHead) -> HTTPParseResult? {
        let limit = max(0, limits.maxBodyBytes(head))
        let codings = head.headers.transferCodings
        let length = head.headers.contentLength
        if !codings.isEmpty {
            if length != .absent {
                return fail(HTTPParseError(400, "both Transfer-Encoding and Content-Length", head: head))
            }
            if head.minorVersion == 0 {
                return fail(HTTPParseError(400, "Transfer-Encoding in an HTTP/1.0 request", head: head))
            }
            guard codings == ["chunked"] else {
                return fail(HTTPParseError(501, "unsupported Transfer-Encoding", head: head))
            }
            state = .chunked(
                head,
                ChunkedDecoder(
                    bodyLimit: limit, maxSizeLineBytes: limits.maxChunkLineBytes,
                    maxTrailerBytes: limits.maxHeaderBytes))
            return nil
        }
        switch length {
        case .absent:
            state = .head
            return .request(ReceivedRequest(head: head, body: Data()))
        case .invalid:
            return fail(HTTPParseError(400, "invalid Content-Length", head: head))
        // A valid number too large for any buffer is a body over the limit, not a bad request.
        case .tooLarge:
            return fail(HTTPParseError(413, "request body larger than \(ByteCount.text(limit))", head: head))
        case .bytes(let length):
            guard length <= limit else {
                return fail(HTTPParseError(413, "request body larger than \(ByteCount.text(limit))", head: head))
            }
            state = .body(head, remaining: length)
            return nil
        }
    }

    private enum HeadResult {
        case incomplete
        case failure(HTTPParseError)
        case head(HTTPRequestHead)
    }

    /// Reads the request line and the header fields, up to and including the blank line.
    private mutating func parseHead() -> HeadResult {
        var lines: [Substring] = []
        var cursor = position
        // Empty lines before the request line are ignored: some clients end a body with an
        // extra CRLF that the body's length does not count.
        var sawRequestLine = false
        while true {
            guard let newline = buffer[cursor...].firstIndex(of: 0x0a) else {
                if buffer.count - position > limits.maxHeaderBytes {
                    return .failure(
                        HTTPParseError(400, "header section larger than \(ByteCount.text(limits.maxHeaderBytes))"))
                }
                return .incomplete
            }
            if newline + 1 - position > limits.maxHeaderBytes {
                return .failure(
                    HTTPParseError(400, "header section larger than \(ByteCount.text(limits.maxHeaderBytes))"))
            }
            var end = newline
            if end > cursor && buffer[end - 1] == 0x0d { end -= 1 }
            let bytes = buffer[cursor..<end]
            cursor = newline + 1
            if bytes.isEmpty {
                if sawRequestLine { break }
                continue
            }
            if bytes.contains(where: { $0 == 0x0d || $0 == 0 }) {
                return .failure(HTTPParseError(400, "control character in the header section"))
            }
            sawRequestLine = true
            lines.append(Substring(String(decoding: bytes, as: UTF8.self)))
            if lines.count > limits.maxHeaderCount + 1 {
                return .failure(HTTPParseError(400, "more than \(limits.maxHeaderCount) header fields"))
            }
        }
        position = cursor
        return Self.head(from: lines)
    }

    private static func head(from lines: [Substring]) -> HeadResult {
        let parts = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, HTTPHeader.isToken(parts[0]) else {
            return .failure(HTTPParseError(400, "malformed request line"))
        }
        let target = parts[1]
        guard !target.isEmpty, target.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 > " " && $0 != "\u{7f}" }),
            target.first == "/" || target.hasPrefix("http://") || target.hasPrefix("https://") || target == "*"
        else {
            return .failure(HTTPParseError(400, "malformed request target"))
        }
        let version = parts[2]
        let minor: Int
        switch version {
        case "HTTP/1.1": minor = 1
        case "HTTP/1.0": minor = 0
        default:
            if version.hasPrefix("HTTP/"), version.count == 8 {
                return .failure(HTTPParseError(505, "only HTTP/1.0 and HTTP/1.1 are served"))
            }
            return .failure(HTTPParseError(400, "malformed HTTP version"))
        }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            if line.first == " " || line.first == "\t" {
                return .failure(HTTPParseError(400, "obsolete line folding in a header field"))
            }
            let field: HTTPHeader
            switch Result(catching: { () throws(HTTPHeader.LineFailure) in try HTTPHeader(line: line.utf8) }) {
            case .success(let parsed): field = parsed
            case .failure(.noColon): return .failure(HTTPParseError(400, "header field without a colon"))
            case .failure(.invalidName): return .failure(HTTPParseError(400, "invalid header field name"))
            }
            if field.value.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7f }) {
                return .failure(HTTPParseError(400, "control character in a header field value"))
            }
            headers.append(field)
        }
        let head = HTTPRequestHead(
            method: String(parts[0]), target: String(target), minorVersion: minor, headers: headers)
        if minor == 1 && head.headers.values(for: "Host").count != 1 {
            return .failure(HTTPParseError(400, "an HTTP/1.1 request needs exactly one Host header", head: head))
        }
        return .head(head)
    }
}
