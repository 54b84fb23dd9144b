import CZlib
import CrashReporterSupport

/// Why a gzip stream could not be read or written.
public enum GzipError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input is empty.
    case empty
    /// The input does not start with the gzip magic bytes `1f 8b`.
    case notGzip
    /// The input ends before the gzip trailer.
    case truncated
    /// zlib rejected the stream (bad header, bad deflate data, CRC or length mismatch).
    case corrupt(String)
    /// Bytes follow the end of the (single-member) gzip stream.
    case trailingData
    /// The output would exceed `limit` bytes (a zip bomb, or simply not one of our reports).
    case tooLarge(limit: Int)
    /// zlib itself failed (out of memory, version mismatch).
    case zlib(code: Int32)

    public var description: String {
        switch self {
        case .empty: "empty input"
        case .notGzip: "not a gzip file"
        case .truncated: "truncated gzip stream"
        case .corrupt(let reason): "corrupt gzip stream: \(reason)"
        case .trailingData: "corrupt gzip stream: data after the end of the stream"
        case .tooLarge(let limit): "too large: more than \(ByteCount.text(limit))"
        case .zlib(let code): "zlib error \(code)"
        }
    }
}

/// gzip (RFC 1952) in memory, over the system zlib, with a hard limit on the output size.
public enum Gzip {
    /// 16 MiB: a report is a few tens of KiB; anything past this is refused.
    public static let defaultOutputLimit = 16 << 20

    private static let chunkSize = 64 << 10

    /// Inflates one gzip member. Throws ``GzipError/tooLarge(limit:)`` as soon as the output
    /// would pass `limit` bytes, without ever holding more than `limit` + 1 bytes of output.
    /// The input may be any bytes (`[UInt8]`, a slice, Foundation's `Data`); contiguous ones are
    /// read in place.
    public static func decompress(
        _ data: some Collection<UInt8>, limit: Int = defaultOutputLimit
    ) throws(GzipError) -> [UInt8] {
        try withBytes(data) { input in
            if input.isEmpty { return .failure(.empty) }
            if input[0] != 0x1f || (input.count > 1 && input[1] != 0x8b) { return .failure(.notGzip) }
            if input.count < 2 { return .failure(.truncated) }
            return inflate(input, limit: max(0, limit))
        }.get()
    }

    /// Inflates one zlib stream (RFC 1950: the `SHF_COMPRESSED` sections of ELF files), with
    /// the same `limit` as ``decompress(_:limit:)``.
    public static func decompressZlib(
        _ data: some Collection<UInt8>, limit: Int = defaultOutputLimit
    ) throws(GzipError) -> [UInt8] {
        try withBytes(data) { input in
            if input.isEmpty { return .failure(.empty) }
            return inflate(input, limit: max(0, limit))
        }.get()
    }

    /// Inflates one zlib stream whose inflated size is known (an ELF `SHF_COMPRESSED` section's
    /// `ch_size`) straight into `output`, with no growing buffer and no copy: true when the stream
    /// ends exactly where `output` does.
    package static func inflateZlib(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
    ) -> Bool {
        guard let source = input.baseAddress, let target = output.baseAddress, input.count < Int(UInt32.max),
            output.count < Int(UInt32.max)
        else { return false }
        var stream = z_stream()
        guard inflateInit_(&stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return false }
        defer { inflateEnd(&stream) }
        stream.next_in = UnsafeMutablePointer(mutating: source.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        stream.next_out = target.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = uInt(output.count)
        return CZlib.inflate(&stream, Z_FINISH) == Z_STREAM_END && stream.avail_out == 0
    }

    /// zlib's CRC-32 (the IEEE polynomial, as gzip and `.gnu_debuglink` use it) of `bytes`,
    /// continuing from `crc` (0 to begin).
    package static func crc32(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
        return UInt32(CZlib.crc32(uLong(crc), base.assumingMemoryBound(to: Bytef.self), uInt(bytes.count)))
    }

    /// Deflates `data` into one gzip member. Throws ``GzipError/tooLarge(limit:)`` if the
    /// compressed output would pass `limit` bytes.
    public static func compress(
        _ data: some Collection<UInt8>,
        level: Int32 = Z_DEFAULT_COMPRESSION,
        limit: Int = defaultOutputLimit
    ) throws(GzipError) -> [UInt8] {
        try withBytes(data) { deflate($0, level: level, limit: max(0, limit)) }.get()
    }

    /// Runs `body` on the bytes in place when they are contiguous, on one copy otherwise.
    private static func withBytes<Bytes: Collection<UInt8>>(
        _ bytes: Bytes, _ body: (UnsafeBufferPointer<UInt8>) -> Result<[UInt8], GzipError>
    ) -> Result<[UInt8], GzipError> {
        if let result = bytes.withContiguousStorageIfAvailable(body) { return result }
        return Array(bytes).withUnsafeBufferPointer(body)
    }

    private static func inflate(_ input: UnsafeBufferPointer<UInt8>, limit: Int) -> Result<[UInt8], GzipError> {
        // 15 + 32: a 32 KiB window, and let zlib detect and check the gzip header and trailer.
        withStream(
            reading: input, start: { inflateInit2_(&$0, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) },
            end: { inflateEnd(&$0) }
        ) { stream in
            var output = Output()
            while true {
                // Ask for at most one byte past the limit, so a bomb is caught without inflating it.
                let room = min(chunkSize, limit - output.bytes.count + 1)
                let (status, produced) = output.pull(from: &stream, room: room) { CZlib.inflate(&$0, Z_NO_FLUSH) }
                if output.bytes.count > limit { return .failure(.tooLarge(limit: limit)) }
                switch status {
                case Z_STREAM_END:
                    return stream.avail_in == 0 ? .success(output.bytes) : .failure(.trailingData)
                case Z_OK:
                    // No output room left is fine (loop again); no input left means it was cut short.
                    if stream.avail_in == 0 && produced < room { return .failure(.truncated) }
                case Z_BUF_ERROR:
                    // No progress was possible: zlib wants input that is not there.
                    return .failure(.truncated)
                case Z_DATA_ERROR, Z_NEED_DICT:
                    return .failure(.corrupt(message(of: stream) ?? "invalid data"))
                default:
                    return .failure(.zlib(code: status))
                }
            }
        }
    }

    private static func deflate(
        _ input: UnsafeBufferPointer<UInt8>, level: Int32, limit: Int
    ) -> Result<[UInt8], GzipError> {
        // 15 + 16: a 32 KiB window, written with a gzip header and trailer.
        withStream(
            reading: input,
            start: {
                deflateInit2_(
                    &$0, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                    Int32(MemoryLayout<z_stream>.size))
            },
            end: { deflateEnd(&$0) }
        ) { stream in
            var output = Output()
            while true {
                let (status, _) = output.pull(from: &stream, room: chunkSize) { CZlib.deflate(&$0, Z_FINISH) }
                if output.bytes.count > limit { return .failure(.tooLarge(limit: limit)) }
                switch status {
                case Z_STREAM_END: return .success(output.bytes)
                case Z_OK, Z_BUF_ERROR: continue  // the output chunk was full; drain and go on
                default: return .failure(.zlib(code: status))
                }
            }
        }
    }

    /// Runs `body` on a zlib stream that reads `input` in place, set up by `start` (zlib's
    /// `inflateInit2` or `deflateInit2`) and freed by `end` when `body` returns.
    private static func withStream(
        reading input: UnsafeBufferPointer<UInt8>, start: (inout z_stream) -> Int32, end: (inout z_stream) -> Int32,
        _ body: (inout z_stream) -> Result<[UInt8], GzipError>
    ) -> Result<[UInt8], GzipError> {
        var stream = z_stream()
        // zlib never writes through `next_in`; its type is only mutable for old C callers.
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
        stream.avail_in = uInt(input.count)
        let startStatus = start(&stream)
        guard startStatus == Z_OK else { return .failure(.zlib(code: startStatus)) }
        defer { _ = end(&stream) }
        return body(&stream)
    }

    /// What a stream has written so far, gathered one chunk at a time.
    private struct Output {
        private(set) var bytes: [UInt8] = []
        private var chunk = [UInt8](repeating: 0, count: Gzip.chunkSize)

        /// Runs `step` (zlib's `inflate` or `deflate`) once with `room` bytes (at most a chunk) to
        /// write into, and keeps what it wrote: zlib's status and how many bytes that was.
        mutating func pull(
            from stream: inout z_stream, room: Int, _ step: (inout z_stream) -> Int32
        ) -> (status: Int32, produced: Int) {
            let (status, produced) = chunk.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(room)
                let status = step(&stream)
                return (status, room - Int(stream.avail_out))
            }
            bytes.append(contentsOf: chunk[0..<produced])
            return (status, produced)
        }
    }

    private static func message(of stream: z_stream) -> String? {
        stream.msg.map { String(cString: $0) }
    }
}
