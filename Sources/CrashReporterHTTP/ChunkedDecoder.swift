/// Removes the chunked transfer coding (RFC 9112, section 7.1) from a body as its bytes arrive:
/// chunk-size lines (hexadecimal, `;extensions` ignored), each chunk's data and its line end,
/// the zero-size last chunk, then trailer fields up to the empty line (read and dropped). One
/// decoder serves both directions: the client reading a response and the collector reading a
/// request; each turns a `ChunkedBodyError` into its own error.
///
/// Pure: no I/O. It holds the decoded body, never more than `bodyLimit` bytes, and refuses a
/// size line or a trailer section longer than its limit as soon as the bytes show it.
package struct ChunkedDecoder: Sendable {
    /// Why the bytes are not a chunked body within the limits.
    package enum ChunkedBodyError: Error, Sendable, Equatable {
        /// A chunk-size line longer than `maxSizeLineBytes`.
        case sizeLineTooLong
        /// A chunk size that is not hexadecimal digits.
        case invalidSize
        /// The body would be larger than `bodyLimit` (or the size has more than 15 digits).
        case bodyTooLarge
        /// Chunk data not followed by CRLF: longer than its size.
        case dataLongerThanSize
        /// The trailer section is longer than `maxTrailerBytes`.
        case trailersTooLarge
    }

    /// What the decoder waits for, to say where a stream ended too early.
    package enum Part: Sendable, Equatable {
        case size
        case data
        case trailers
    }

    package let bodyLimit: Int
    package let maxSizeLineBytes: Int
    package let maxTrailerBytes: Int
    /// The body decoded so far; the whole body once `isComplete`.
    package private(set) var body: [UInt8] = []
    private var state: State = .size

    private enum State: Sendable, Equatable {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailers(used: Int)
        case done
    }

    package init(bodyLimit: Int, maxSizeLineBytes: Int, maxTrailerBytes: Int) {
        self.bodyLimit = max(0, bodyLimit)
        self.maxSizeLineBytes = maxSizeLineBytes
        self.maxTrailerBytes = maxTrailerBytes
    }

    /// Whether the empty line after the trailers has been read.
    package var isComplete: Bool { state == .done }

    package var awaiting: Part {
        switch state {
        case .size: .size
        case .data, .dataEnd: .data
        case .trailers, .done: .trailers
        }
    }

    /// Decodes what it can of `bytes` and returns how many it consumed. It stops at the end of
    /// the body: what follows belongs to the next message. Bytes it did not consume (a line not
    /// yet ended) must be offered again, with more after them.
    package mutating func consume(_ bytes: ArraySlice<UInt8>) throws(ChunkedBodyError) -> Int {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            switch state {
            case .done:
                return index - bytes.startIndex
            case .size:
                guard let (line, next) = Self.line(in: bytes[index...], max: maxSizeLineBytes) else {
                    if bytes.endIndex - index > maxSizeLineBytes + 1 { throw .sizeLineTooLong }
                    return index - bytes.startIndex
                }
                guard line.count <= maxSizeLineBytes else { throw .sizeLineTooLong }
                let size = try Self.size(line)
                guard size <= bodyLimit - body.count else { throw .bodyTooLarge }
                state = size == 0 ? .trailers(used: 0) : .data(remaining: size)
                index = next
            case .data(let remaining):
                let take = min(remaining, bytes.endIndex - index)
                body.append(contentsOf: bytes[index..<(index + take)])
                index += take
                state = take == remaining ? .dataEnd : .data(remaining: remaining - take)
            case .dataEnd:
                // CRLF, or a bare LF.
                if bytes[index] == UInt8(ascii: "\n") {
                    index += 1
                } else {
                    guard bytes[index] == UInt8(ascii: "\r") else { throw .dataLongerThanSize }
                    guard index + 1 < bytes.endIndex else { return index - bytes.startIndex }
                    guard bytes[index + 1] == UInt8(ascii: "\n") else { throw .dataLongerThanSize }
                    index += 2
                }
                state = .size
            case .trailers(let used):
                guard let newline = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) else {
                    if used + (bytes.endIndex - index) > maxTrailerBytes { throw .trailersTooLarge }
                    return index - bytes.startIndex
                }
                let length = newline - index
                guard used + length + 1 <= maxTrailerBytes else { throw .trailersTooLarge }
                let isEmpty = length == 0 || (length == 1 && bytes[index] == UInt8(ascii: "\r"))
                state = isEmpty ? .done : .trailers(used: used + length + 1)
                index = newline + 1
            }
        }
        return index - bytes.startIndex
    }

    /// The line at the start of `bytes` without its LF (and a CR before it), and the index after
    /// it; nil when no LF is within `max` + 2 bytes.
    private static func line(in bytes: ArraySlice<UInt8>, max: Int) -> (ArraySlice<UInt8>, Int)? {
        guard let newline = bytes.prefix(max + 2).firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        var end = newline
        if end > bytes.startIndex && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return (bytes[bytes.startIndex..<end], newline + 1)
    }

    /// The hexadecimal size before any `;extension`.
    private static func size(_ line: ArraySlice<UInt8>) throws(ChunkedBodyError) -> Int {
        let digits = line[..<(line.firstIndex(of: UInt8(ascii: ";")) ?? line.endIndex)].trimmingHTTPWhitespace()
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIHexDigit) else { throw .invalidSize }
        guard digits.count <= 15 else { throw .bodyTooLarge }
        return digits.reduce(0) { size, digit in
            size * 16 + Int(digit.isASCIIDigit ? digit - UInt8(ascii: "0") : (digit | 0x20) - UInt8(ascii: "a") + 10)
        }
    }
}
