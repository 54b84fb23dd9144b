/// A connection the exchange reads and writes: the plain socket or TLS over it. Both keep to the
/// caller's deadline and turn every failure into an `HTTPError`.
protocol ByteStream: AnyObject {
    /// Writes all of `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer, deadline: Deadline) throws(HTTPError)
    /// Reads what is available (waiting for at least one byte): the count, 0 at the end of the
    /// stream.
    func read(into buffer: UnsafeMutableRawBufferPointer, deadline: Deadline) throws(HTTPError) -> Int
}

extension ByteStream {
    /// Writes all of `bytes`.
    func write(_ bytes: [UInt8], deadline: Deadline) throws(HTTPError) {
        // withUnsafeBytes only rethrows untyped errors: carry the typed one out in a Result.
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(HTTPError) in try write(buffer, deadline: deadline) }
        }.get()
    }
}
