import CrashReporterSupport

/// One line of a report's copy on standard error, as the crash handler writes it
/// (CShims/stderr_copy.c; docs/report-schema.md, "On standard error"):
/// `crash-reporter-data:1 <id> <part>/<count> <crc32> <base64url>`, found anywhere in a log line.
/// The CRC-32 covers `<id> <part>/<count>` and the part's bytes.
public struct LoggedReportLine: Sendable, Equatable {
    /// The marker a line begins with, after any prefix a log driver adds.
    public static let marker = Array("crash-reporter-data:1 ".utf8)
    /// Report bytes a line carries (the last line fewer).
    public static let partBytes = 3000
    /// The most lines a report can have: the reader's size limit in parts.
    public static let maxParts = (ReportDecoding.sizeLimit + partBytes - 1) / partBytes

    /// The report's id (its `report_id`).
    public var id: String
    /// Which part of the report this line carries, from 1.
    public var part: Int
    /// How many lines the report has.
    public var count: Int
    /// This part's bytes of the report's gzip file, decoded from base64url.
    public var bytes: [UInt8]

    /// Why a line with the marker was refused.
    public enum Refusal: Error, Sendable, Equatable {
        /// The id, part or count cannot be read: nothing ties the line to a report.
        case unreadable
        /// The line names report `id`, but its payload or checksum is wrong (a cut or changed line).
        case checksum(id: String, part: Int)
    }

    /// The line whose marker begins at `start` in `text` (the marker itself included); the payload
    /// ends at the first byte that is not base64url, so a JSON-escaped line's `\n"` ends it.
    public static func parse(_ text: ArraySlice<UInt8>) throws(Refusal) -> LoggedReportLine {
        var at = text.startIndex + marker.count
        guard at <= text.endIndex else { throw .unreadable }
        let idStart = at
        while at < text.endIndex, isIDByte(text[at]) { at += 1 }
        guard at - idStart == 36, let id = String(validating: text[idStart..<at], as: UTF8.self) else {
            throw .unreadable
        }
        guard let (part, afterPart) = number(text, from: skipSpace(text, at), until: UInt8(ascii: "/")),
            let (count, afterCount) = number(text, from: afterPart, until: UInt8(ascii: " ")),
            (1...maxParts).contains(count), (1...count).contains(part)
        else { throw .unreadable }
        let header = text[idStart..<afterCount - 1]
        var crcAt = afterCount
        var crc: UInt32 = 0
        for _ in 0..<8 {
            guard crcAt < text.endIndex, let digit = hexValue(text[crcAt]) else { throw .checksum(id: id, part: part) }
            crc = crc << 4 | UInt32(digit)
            crcAt += 1
        }
        guard crcAt < text.endIndex, text[crcAt] == UInt8(ascii: " ") else { throw .checksum(id: id, part: part) }
        var end = crcAt + 1
        while end < text.endIndex, Base64URL.isAlphabet(text[end]) || text[end] == UInt8(ascii: "=") { end += 1 }
        guard let bytes = Base64URL.decode(text[(crcAt + 1)..<end]),
            !bytes.isEmpty, bytes.count <= partBytes, part == count || bytes.count == partBytes
        else { throw .checksum(id: id, part: part) }
        var computed = header.withUnsafeBytes { Gzip.crc32(0, $0) }
        computed = bytes.withUnsafeBytes { Gzip.crc32(computed, $0) }
        guard computed == crc else { throw .checksum(id: id, part: part) }
        return LoggedReportLine(id: id, part: part, count: count, bytes: bytes)
    }

    private static func isIDByte(_ byte: UInt8) -> Bool {
        hexValue(byte) != nil || byte == UInt8(ascii: "-")
    }

    private static func skipSpace(_ text: ArraySlice<UInt8>, _ at: Int) -> Int {
        at < text.endIndex && text[at] == UInt8(ascii: " ") ? at + 1 : text.endIndex
    }

    /// A decimal number of at most 7 digits from `start`, ended by `terminator`; the index after it.
    private static func number(_ text: ArraySlice<UInt8>, from start: Int, until terminator: UInt8) -> (Int, Int)? {
        var at = start
        var value = 0
        while at < text.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[at]), at - start < 7 {
            value = value * 10 + Int(text[at] - UInt8(ascii: "0"))
            at += 1
        }
        guard at > start, at < text.endIndex, text[at] == terminator else { return nil }
        return (value, at + 1)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}

/// Base64 with the URL-safe alphabet (RFC 4648 §5), `=` padding at the end only: the alphabet
/// has no character that JSON escapes.
enum Base64URL {
    static func isAlphabet(_ byte: UInt8) -> Bool { value(byte) != nil }

    private static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }

    /// The bytes of `text` (a multiple of 4 characters), nil when it is not base64url.
    static func decode(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        guard text.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3)
        var at = text.startIndex
        while at < text.endIndex {
            let last = at + 4 == text.endIndex
            let padding = last ? text[at..<at + 4].reversed().prefix { $0 == UInt8(ascii: "=") }.count : 0
            guard padding <= 2 else { return nil }
            var group: UInt32 = 0
            for offset in 0..<4 {
                let byte = text[at + offset]
                if offset >= 4 - padding {
                    group <<= 6
                    continue
                }
                guard let v = value(byte) else { return nil }
                group = group << 6 | UInt32(v)
            }
            out.append(UInt8(truncatingIfNeeded: group >> 16))
            if padding < 2 { out.append(UInt8(truncatingIfNeeded: group >> 8)) }
            if padding < 1 { out.append(UInt8(truncatingIfNeeded: group)) }
            at += 4
        }
        return out
    }
}
