/// Why a text is not JSON, and where: one line for a user, such as
/// `unexpected end of input at line 3, column 1`.
package struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, in lower case, without the position (`expected ':' after an object key`).
    package var reason: String
    /// Where, counted in bytes from the start of the input (0-based).
    package var offset: Int
    /// The line (1-based; lines end with `\n`).
    package var line: Int
    /// The column (1-based), counted in Unicode scalars from the start of the line (bytes
    /// that are not the start of a UTF-8 sequence are not counted).
    package var column: Int

    package var description: String { "\(reason) at line \(line), column \(column)" }
}

extension JSONParseError {
    /// The error for `reason` at byte `offset` of `input`, with its line and column.
    init(reason: String, offset: Int, in input: UnsafeBufferPointer<UInt8>) {
        var line = 1
        var column = 1
        for byte in input[..<min(offset, input.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {  // not a continuation byte
                column += 1
            }
        }
        self.init(reason: reason, offset: offset, line: line, column: column)
    }
}
