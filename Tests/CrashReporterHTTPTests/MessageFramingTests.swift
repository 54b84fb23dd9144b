import Testing

@testable import CrashReporterHTTP

/// The framing both sides read with (`ChunkedDecoder`, `HTTPHeaders.contentLength`,
/// `HTTPHeader(line:)`), called directly: the client's response reader and the collector's
/// request parser each test it through their own errors as well.
@Suite struct MessageFramingTests {
    private static let chunked = Array("5;name=value\r\nhello\r\n6\r\n world\n0\r\nX-Trailer: yes\r\n\r\nNEXT".utf8)

    private func decoder(limit: Int = 1000) -> ChunkedDecoder {
        ChunkedDecoder(bodyLimit: limit, maxSizeLineBytes: 16, maxTrailerBytes: 64)
    }

    @Test func chunkedBodyWholeStopsAtItsEnd() throws {
        var decoder = decoder()
        let used = try decoder.consume(Self.chunked[...])
        #expect(decoder.isComplete)
        #expect(String(decoding: decoder.body, as: UTF8.self) == "hello world")
        #expect(String(decoding: Self.chunked[used...], as: UTF8.self) == "NEXT")
    }

    @Test func chunkedBodyByteByByteGivesTheSame() throws {
        var decoder = decoder()
        var pending: [UInt8] = []
        var rest = Self.chunked[...]
        while !decoder.isComplete, let byte = rest.popFirst() {
            pending.append(byte)
            pending.removeFirst(try decoder.consume(pending[...]))
        }
        #expect(decoder.isComplete)
        #expect(String(decoding: decoder.body, as: UTF8.self) == "hello world")
        #expect(pending.isEmpty)
        #expect(String(decoding: rest, as: UTF8.self) == "NEXT")
    }

    @Test func chunkedFailures() {
        func failure(_ text: String, limit: Int = 1000) -> ChunkedDecoder.ChunkedBodyError? {
            var decoder = decoder(limit: limit)
            do {
                _ = try decoder.consume(Array(text.utf8)[...])
                return nil
            } catch {
                return error
            }
        }
        #expect(failure("zz\r\n") == .invalidSize)
        #expect(failure("\r\n") == .invalidSize)
        #expect(failure("2\r\nhiXX") == .dataLongerThanSize)
        #expect(failure("2\r\nhi\rX") == .dataLongerThanSize)
        #expect(failure("b\r\n", limit: 10) == .bodyTooLarge)
        #expect(failure("ffffffffffffffff\r\n") == .bodyTooLarge)
        #expect(failure(String(repeating: "1", count: 20)) == .sizeLineTooLong)
        #expect(failure("0\r\n" + String(repeating: "X-A: b\r\n", count: 10)) == .trailersTooLarge)
        // Not failures: what has come so far may still end well.
        #expect(failure("a\r\nhel") == nil)
        #expect(failure("0\r\nX-A: b\r\n") == nil)
    }

    @Test func contentLengthReadings() {
        func length(_ values: String...) -> ContentLength {
            HTTPHeaders(values.map { HTTPHeader(name: "content-length", value: $0) }).contentLength
        }
        #expect(HTTPHeaders().contentLength == .absent)
        #expect(length("11") == .bytes(11))
        #expect(length("3", " 3 ") == .bytes(3))
        #expect(length("3, 3") == .bytes(3))
        #expect(length("3", "4") == .invalid)
        #expect(length("3,,3") == .invalid)
        #expect(length("") == .invalid)
        #expect(length("-1") == .invalid)
        #expect(length("1e3") == .invalid)
        #expect(length("9999999999999999") == .tooLarge)
    }

    @Test func headerLines() throws {
        #expect(try HTTPHeader(line: Array("X-Thing:  v w \t".utf8)) == HTTPHeader(name: "X-Thing", value: "v w"))
        #expect(try HTTPHeader(line: Array("Empty:".utf8)) == HTTPHeader(name: "Empty", value: ""))
        #expect(throws: HTTPHeader.LineFailure.noColon) { try HTTPHeader(line: Array("no colon".utf8)) }
        #expect(throws: HTTPHeader.LineFailure.invalidName) { try HTTPHeader(line: Array(": v".utf8)) }
        #expect(throws: HTTPHeader.LineFailure.invalidName) { try HTTPHeader(line: Array("a b: v".utf8)) }
    }

    @Test func headerTokensIgnoreCase() {
        let headers: HTTPHeaders = ["connection": "Keep-Alive, Upgrade", "Connection": "close"]
        #expect(headers.contains("CONNECTION", token: "keep-alive"))
        #expect(headers.contains("Connection", token: "CLOSE"))
        #expect(!headers.contains("Connection", token: "upgrade-insecure"))
        let codings: HTTPHeaders = ["Transfer-Encoding": "gzip, Chunked", "transfer-encoding": " identity"]
        #expect(codings.transferCodings == ["gzip", "chunked", "identity"])
    }
}
