import CCrashReporter
import CrashReporterSupport

/// The signal handler's JSON string writer (CShims/json.c, `scr_json_write_string`), its
/// output read back by the JSON parser the reader uses. The first input byte gives the byte
/// bound (0–255), the rest is the string's bytes.
///
/// Properties: nothing crashes (the C code runs under AddressSanitizer too); the output always
/// parses as exactly one JSON string; when the input is valid UTF-8 the parsed string is the
/// input cut to the bound on a character boundary, byte for byte; otherwise every well-formed
/// character the writer kept is one of the input's, in order, with U+FFFD for what was not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONWriter(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard size >= 1, let data else { return 0 }
    let maxBytes = Int(data[0])
    let input = UnsafeBufferPointer(start: data + 1, count: size - 1)
    var buffer = [CChar](repeating: 0, count: 6 * input.count + 3)
    let length = input.withMemoryRebound(to: CChar.self) { chars in
        scr_json_write_string(&buffer, buffer.count, chars.baseAddress, chars.count, maxBytes)
    }
    precondition(length >= 0, "the writer ran out of a buffer six times the input")
    let literal = buffer.prefix(length).map { UInt8(bitPattern: $0) }
    precondition(!literal.contains { $0 < 0x20 }, "a raw control byte in the output")
    guard case .string(let decoded) = try? JSON.parse(literal) else {
        fatalError("the writer's output is not a JSON string: \(literal)")
    }
    if let text = String(validating: input, as: UTF8.self) {
        var expected: [UInt8] = []
        for scalar in text.unicodeScalars {
            let encoded = Array(String(scalar).utf8)
            if expected.count + encoded.count > maxBytes { break }
            expected += encoded
        }
        precondition(Array(decoded.utf8) == expected, "valid UTF-8 did not round-trip: \(Array(decoded.utf8))")
    } else {
        // Each kept character appears in the input in order; replacements aside, nothing is added.
        let source = String(decoding: input, as: UTF8.self).unicodeScalars.filter { $0 != "\u{FFFD}" }
        let kept = decoded.unicodeScalars.filter { $0 != "\u{FFFD}" }
        var cursor = source.startIndex
        for scalar in kept {
            guard let found = source[cursor...].firstIndex(of: scalar) else {
                fatalError("the writer made up a character U+\(String(scalar.value, radix: 16))")
            }
            cursor = source.index(after: found)
        }
    }
    return 0
}
