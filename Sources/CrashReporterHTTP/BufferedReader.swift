/// Reads a response from a stream in 16 KiB pieces and hands it out as lines (the status line,
/// headers, chunk sizes) or byte runs (the body). It never holds more than one piece beyond what
/// the caller has asked for, so what the server sends is bounded by the caller's limits.
struct BufferedReader {
    private let stream: any ByteStream
    private let deadline: Deadline
    private var buffer: [UInt8] = []
    private var start = 0
    private static let pieceSize = 16 * 1024

    init(stream: any ByteStream, deadline: Deadline) {
        self.stream = stream
        self.deadline = deadline
    }

    /// Bytes received and not yet handed out.
    var bufferedCount: Int { buffer.count - start }

    /// The bytes received and not yet handed out, for a decoder that takes what it can
    /// (`skip` then hands out what it took).
    var buffered: ArraySlice<UInt8> { buffer[start...] }

    /// Hands out `count` buffered bytes.
    mutating func skip(_ count: Int) {
        start += count
    }

    /// One line without its CRLF (a bare LF is accepted too). Throws `tooLong` when the line is
    /// longer than `limit` bytes, `badResponse` naming `what` when the stream ends first.
    mutating func readLine(limit: Int, tooLong: HTTPError, what: String) throws(HTTPError) -> [UInt8] {
        var searched = start
        while true {
            if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > start && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                guard end - start <= limit else { throw tooLong }
                let line = Array(buffer[start..<end])
                start = newline + 1
                return line
            }
            guard bufferedCount <= limit + 1 else { throw tooLong }
            searched = buffer.count
            let before = start
            guard try fill() else { throw .badResponse("the connection closed in the middle of \(what)") }
            searched -= before - start
        }
    }

    /// Exactly `count` bytes appended to `output`; throws `badResponse` when the stream ends first.
    mutating func readExactly(_ count: Int, into output: inout [UInt8], what: String) throws(HTTPError) {
        var left = count
        while left > 0 {
            if bufferedCount == 0 {
                guard try fill() else { throw .badResponse("the connection closed in the middle of \(what)") }
            }
            let take = min(left, bufferedCount)
            output.append(contentsOf: buffer[start..<(start + take)])
            start += take
            left -= take
        }
    }

    /// Everything until the end of the stream appended to `output`; throws `responseTooLarge`
    /// as soon as `output` would exceed `limit`.
    mutating func readToEnd(into output: inout [UInt8], limit: Int) throws(HTTPError) {
        while true {
            if bufferedCount > 0 {
                guard output.count + bufferedCount <= limit else { throw .responseTooLarge(limit: limit) }
                output.append(contentsOf: buffer[start...])
                start = buffer.count
            }
            guard try fill() else { return }
        }
    }

    /// Reads one more piece; false at the end of the stream. Consumed bytes are dropped first,
    /// so the buffer stays near one piece.
    mutating func fill() throws(HTTPError) -> Bool {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: Self.pieceSize))
        let stream = self.stream
        let deadline = self.deadline
        // withUnsafeMutableBytes only rethrows untyped errors: carry the typed one out in a Result.
        let count = try buffer.withUnsafeMutableBytes { raw in
            Result { () throws(HTTPError) -> Int in
                try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[old...]), deadline: deadline)
            }
        }.get()
        buffer.removeLast(Self.pieceSize - count)
        return count > 0
    }
}
