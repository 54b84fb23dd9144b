/// Replaces personal data in breadcrumb and analytics values with `[redacted]`, keeping the
/// rest of the string, and bounds the result.
///
/// It runs on every breadcrumb value and every analytics parameter, so it is one hand-written
/// pass over the UTF-8 bytes: a first scan that counts a few cheap hints (an `@`, 13 digits,
/// three dots after digits, two colons, a long run of token characters, `eyJ`, `bearer`)
/// returns the value untouched when nothing could match; only then does a second scan try
/// the matchers below at word starts. Nothing is allocated unless something is replaced or cut.
///
/// What is replaced (see docs/tracking.md for the reasoning on each):
/// - e-mail addresses: `local@domain.tld`;
/// - IPv4 addresses (four octets 0–255) and IPv6 addresses (eight groups, or fewer with `::`);
/// - card numbers: 13 to 19 digits, optionally grouped by single spaces or dashes, starting
///   with 2–6 (the card networks' first digits) and passing the Luhn check;
/// - bearer tokens: the credential after `Bearer ` (the word itself stays);
/// - JSON Web Tokens: three base64url segments, the first starting `eyJ`;
/// - long opaque tokens: a run of 32 or more `[A-Za-z0-9+/=_-]` that is hex with a digit
///   (hashes, UUIDs, hex keys) or holds a piece (between `_` and `-`) of 20 or more that is
///   hex with a digit or mixes digits and letters of both cases (API keys, base64 secrets).
///   Runs that start with `/` (absolute paths) stay; `=` counts only as trailing padding.
/// - bearer credentials need 8 or more bytes with a digit or a symbol.
///
/// Near misses stay: version numbers (`1.2.3`), times (`12:30:45`), dates, short numbers,
/// epoch timestamps, ordinary and long snake_case words.
public enum Scrubber {
    /// What replaces each finding.
    public static let redacted = "[redacted]"

    /// The bound `scrub(_:)` applies, in UTF-8 bytes.
    public static let defaultMaxBytes = 256

    /// Scrubs `value` and cuts it to at most `defaultMaxBytes` UTF-8 bytes.
    public static func scrub(_ value: String) -> String {
        scrub(value, maxBytes: defaultMaxBytes)
    }

    /// Scrubs `value` and cuts the result to at most `maxBytes` UTF-8 bytes, on a character
    /// boundary. Only the first `4 * maxBytes + 64` bytes are read: what lies beyond could
    /// never reach the result.
    public static func scrub(_ value: String, maxBytes: Int) -> String {
        let maxBytes = Swift.max(0, maxBytes)
        if let fast = value.utf8.withContiguousStorageIfAvailable({ scrub(bytes: $0, maxBytes: maxBytes) }) {
            return fast ?? value
        }
        var copy = value
        return copy.withUTF8 { scrub(bytes: $0, maxBytes: maxBytes) } ?? value
    }

    /// Calls `body` with the UTF-8 bytes of `value` scrubbed and cut to `maxBytes`: the value's own
    /// bytes, without making a string, when the first scan finds nothing that could match and it
    /// fits (the common case: the breadcrumb recorder hands each data value to the ring this
    /// way), else the bytes of `scrub(_:maxBytes:)`'s result.
    @inlinable @inline(__always)
    package static func withScrubbedBytes(
        _ value: String, maxBytes: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        let untouched = value.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard bytes.count <= maxBytes, !Hints(bytes).anySuspicious else { return false }
            body(bytes)
            return true
        }
        guard untouched != true else { return }
        var scrubbed = scrub(value, maxBytes: maxBytes)
        scrubbed.withUTF8(body)
    }

    /// Nil when `bytes` is returned unchanged.
    private static func scrub(bytes all: UnsafeBufferPointer<UInt8>, maxBytes: Int) -> String? {
        let window = Swift.min(all.count, maxBytes &* 4 &+ 64)
        let bytes = UnsafeBufferPointer(rebasing: all[0..<window])
        guard Hints(bytes).anySuspicious else {
            return all.count <= maxBytes ? nil : cut(bytes, to: maxBytes)
        }
        var scanner = Scanner(bytes: bytes)
        let out = scanner.run()
        // Untouched: nothing found, nothing left unread or cut.
        if out == nil && window == all.count && all.count <= maxBytes { return nil }
        var result = out.map { $0.withUnsafeBufferPointer { cut($0, to: maxBytes) } } ?? cut(bytes, to: maxBytes)
        // What is left can hold a finding that the first pass could not see: a replacement ends
        // a word early (`200d::` before a long digit run that was a token), a cut or the end of
        // the window does too (`80::1fn` cut after `80::1`; twenty digits cut to sixteen that
        // pass the Luhn check). So a changed value is scrubbed again until nothing changes. A
        // finding never lies inside `[redacted]`, so each round replaces at least one byte of the
        // value and this ends; the bound on rounds only guards it.
        for _ in 0..<8 {
            var copy = result
            let again = copy.withUTF8 { bytes in
                var scanner = Scanner(bytes: bytes)
                return scanner.run().map { $0.withUnsafeBufferPointer { cut($0, to: maxBytes) } }
            }
            guard let again else { return result }
            result = again
        }
        return ""
    }

    /// The longest prefix of at most `max` bytes that ends on a UTF-8 character boundary.
    private static func cut(_ bytes: UnsafeBufferPointer<UInt8>, to max: Int) -> String {
        var end = Swift.min(bytes.count, max)
        if end < bytes.count {
            while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<end]), as: UTF8.self)
    }
}

// MARK: - Fast path

/// What the first scan learns: enough to rule every matcher out for plain values. Inlinable,
/// with the byte classes it reads, so that a breadcrumb's plain value costs no call.
@usableFromInline
struct Hints {
    /// A run of token bytes this long or longer could be an opaque token.
    @usableFromInline static var tokenMinLength: Int { 32 }

    @usableFromInline var anySuspicious = false

    @inlinable @inline(__always)
    init(_ b: UnsafeBufferPointer<UInt8>) {
        var digits = 0
        var digitDots = 0
        var colons = 0
        var run = 0
        var i = 0
        let n = b.count
        while i < n {
            let c = b[i]
            if isDigit(c) {
                digits += 1
                run += 1
                // A card needs 13 digits; IPv4 needs three dots after digits.
                if digits >= 13 { anySuspicious = true; return }
                if i + 1 < n && b[i + 1] == UInt8(ascii: ".") {
                    digitDots += 1
                    if digitDots >= 3 { anySuspicious = true; return }
                }
            } else if c == UInt8(ascii: "@") {
                anySuspicious = true; return
            } else if c == UInt8(ascii: ":") {
                colons += 1
                run = 0
                if colons >= 2 { anySuspicious = true; return }
            } else if isTokenByte(c) {
                run += 1
                if c == UInt8(ascii: "J") && i >= 2 && b[i - 1] == UInt8(ascii: "y") && b[i - 2] == UInt8(ascii: "e") {
                    anySuspicious = true; return
                }
                if (c | 0x20) == UInt8(ascii: "b") && i + 5 < n && (b[i + 1] | 0x20) == UInt8(ascii: "e")
                    && (b[i + 2] | 0x20) == UInt8(ascii: "a") && (b[i + 3] | 0x20) == UInt8(ascii: "r")
                    && (b[i + 4] | 0x20) == UInt8(ascii: "e") && (b[i + 5] | 0x20) == UInt8(ascii: "r")
                {
                    anySuspicious = true; return
                }
            } else {
                run = 0
            }
            if run >= Self.tokenMinLength { anySuspicious = true; return }
            i += 1
        }
    }
}

// MARK: - Slow path

/// The second scan: walks the bytes once, tries each matcher where its kind of finding can
/// start, copies the bytes in between. Every matcher reads a bounded stretch or a run it then
/// skips, so the scan stays linear.
private struct Scanner {
    static let tokenPieceMinLength = 20

    let b: UnsafeBufferPointer<UInt8>
    var out: [UInt8] = []
    var copiedUpTo = 0
    var replaced = false

    init(bytes: UnsafeBufferPointer<UInt8>) { self.b = bytes }

    /// The scrubbed bytes, nil when nothing was replaced.
    mutating func run() -> [UInt8]? {
        let n = b.count
        var i = 0
        // End of the current token run already judged not to be an opaque token: the token
        // matcher is tried once per run, not at every byte of it.
        var tokenRunJudgedUntil = 0
        while i < n {
            let c = b[i]
            let prev: UInt8 = i > 0 ? b[i - 1] : 0x20
            if let end = matchAt(i, c, prev, &tokenRunJudgedUntil) {
                if end.keepPrefix > i { i = end.keepPrefix }
                replace(from: i, to: end.end)
                i = end.end
                continue
            }
            i += 1
            // No finding starts right after a letter or digit: skip the rest of the word.
            if isAlnum(c) {
                while i < n && isAlnum(b[i]) { i += 1 }
            }
        }
        guard replaced else { return nil }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: b[copiedUpTo..<n]))
        return out
    }

    private mutating func replace(from start: Int, to end: Int) {
        if !replaced {
            replaced = true
            out.reserveCapacity(b.count)
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: b[copiedUpTo..<start]))
        out.append(contentsOf: Scrubber.redacted.utf8)
        copiedUpTo = end
    }

    struct Match {
        /// Bytes from the match start up to here are kept (e.g. `Bearer `).
        var keepPrefix: Int
        var end: Int
    }

    private func matchAt(_ i: Int, _ c: UInt8, _ prev: UInt8, _ judged: inout Int) -> Match? {
        let startsWord = !isAlnum(prev)
        if isEmailLocalByte(c) && !isEmailLocalByte(prev), let e = email(i) { return Match(keepPrefix: i, end: e) }
        guard startsWord else { return nil }
        if c == UInt8(ascii: "e"), let e = jwt(i) { return Match(keepPrefix: i, end: e) }
        if c | 0x20 == UInt8(ascii: "b"), let m = bearer(i) { return m }
        if isDigit(c) && prev != UInt8(ascii: "."), let e = ipv4(i) { return Match(keepPrefix: i, end: e) }
        if (isHex(c) || c == UInt8(ascii: ":")) && prev != UInt8(ascii: ":"), let e = ipv6(i) {
            return Match(keepPrefix: i, end: e)
        }
        if isDigit(c) && prev != UInt8(ascii: ".") && prev != UInt8(ascii: "-"), let e = card(i) {
            return Match(keepPrefix: i, end: e)
        }
        if i >= judged && isTokenByte(c) && !isTokenByte(prev) {
            let end = tokenRunEnd(i)
            if isOpaqueToken(i, end) { return Match(keepPrefix: i, end: end) }
            judged = end
        }
        return nil
    }

    // MARK: e-mail

    /// `local@label.label…tld`: local `[A-Za-z0-9._%+-]+`, labels `[A-Za-z0-9-]+`, at least two
    /// labels, the last of two or more letters.
    private func email(_ start: Int) -> Int? {
        let n = b.count
        var i = start
        while i < n && isEmailLocalByte(b[i]) { i += 1 }
        guard i < n, i > start, b[i] == UInt8(ascii: "@") else { return nil }
        i += 1
        var labels = 0
        var end = -1
        while i < n {
            let labelStart = i
            var allLetters = true
            while i < n && (isAlnum(b[i]) || b[i] == UInt8(ascii: "-")) {
                if !isLetter(b[i]) { allLetters = false }
                i += 1
            }
            if i == labelStart { break }
            labels += 1
            if labels >= 2 && allLetters && i - labelStart >= 2 { end = i }
            if i + 1 < n && b[i] == UInt8(ascii: ".") && isAlnum(b[i + 1]) { i += 1 } else { break }
        }
        return end > 0 ? end : nil
    }

    // MARK: JWT

    /// `eyJ…` `.` segment `.` segment, base64url, the first two at least 4 bytes long.
    private func jwt(_ start: Int) -> Int? {
        let n = b.count
        guard start + 3 < n, b[start + 1] == UInt8(ascii: "y"), b[start + 2] == UInt8(ascii: "J") else { return nil }
        var i = start
        for segment in 0..<3 {
            let segStart = i
            while i < n && isBase64URL(b[i]) { i += 1 }
            let length = i - segStart
            if segment < 2 {
                guard length >= 4, i < n, b[i] == UInt8(ascii: ".") else { return nil }
                i += 1
            } else {
                guard length >= 1 else { return nil }
            }
        }
        return i
    }

    // MARK: Bearer

    /// `Bearer` (any case) then spaces then a credential of `[A-Za-z0-9._~+/=-]`; only the
    /// credential is replaced.
    private func bearer(_ start: Int) -> Match? {
        let n = b.count
        let word = "bearer".utf8
        guard start + word.count < n else { return nil }
        var i = start
        for w in word {
            guard b[i] | 0x20 == w else { return nil }
            i += 1
        }
        guard b[i] == UInt8(ascii: " ") else { return nil }
        while i < n && b[i] == UInt8(ascii: " ") { i += 1 }
        let tokenStart = i
        var looksMade = false
        while i < n {
            let c = b[i]
            if isAlnum(c) {
                if isDigit(c) { looksMade = true }
            } else if c == UInt8(ascii: ".") || c == UInt8(ascii: "-") || c == UInt8(ascii: "_")
                || c == UInt8(ascii: "~") || c == UInt8(ascii: "+") || c == UInt8(ascii: "/") || c == UInt8(ascii: "=")
            {
                looksMade = true
            } else {
                break
            }
            i += 1
        }
        // "bearer of good news" stays: a credential has 8 or more bytes and a digit or a symbol.
        guard i - tokenStart >= 8 && looksMade else { return nil }
        return Match(keepPrefix: tokenStart, end: i)
    }

    // MARK: IPv4

    /// Four octets 0–255 separated by dots, not part of a longer dotted number.
    private func ipv4(_ start: Int) -> Int? {
        let n = b.count
        var i = start
        for octet in 0..<4 {
            var value = 0
            let octetStart = i
            while i < n && isDigit(b[i]) && i - octetStart < 4 {
                value = value * 10 + Int(b[i] &- 0x30)
                i += 1
            }
            let length = i - octetStart
            guard length >= 1 && length <= 3 && value <= 255 else { return nil }
            if octet < 3 {
                guard i < n, b[i] == UInt8(ascii: ".") else { return nil }
                i += 1
            }
        }
        if i < n && (isAlnum(b[i]) || b[i] == UInt8(ascii: "-")) { return nil }
        if i + 1 < n && b[i] == UInt8(ascii: ".") && isDigit(b[i + 1]) { return nil }
        return i
    }

    // MARK: IPv6

    /// Groups of 1–4 hex digits separated by `:`; either eight groups, or at most seven with
    /// one `::`; optionally ending in an IPv4 address (`::ffff:10.0.0.1`).
    private func ipv6(_ start: Int) -> Int? {
        let n = b.count
        var i = start
        var groups = 0
        var compressed = false
        var lastEnd = start
        if i + 1 < n && b[i] == UInt8(ascii: ":") {
            guard b[i + 1] == UInt8(ascii: ":") else { return nil }
            compressed = true
            i += 2
            lastEnd = i
        }
        while i < n && groups < 8 {
            // An embedded IPv4 address counts as two groups.
            if groups <= 6 && isDigit(b[i]), let v4End = ipv4(i) {
                groups += 2
                lastEnd = v4End
                i = v4End
                break
            }
            let groupStart = i
            while i < n && isHex(b[i]) && i - groupStart < 5 { i += 1 }
            let length = i - groupStart
            guard length >= 1 && length <= 4 else { break }
            groups += 1
            lastEnd = i
            guard i < n, b[i] == UInt8(ascii: ":") else { break }
            if i + 1 < n && b[i + 1] == UInt8(ascii: ":") {
                if compressed { break }
                compressed = true
                i += 2
                lastEnd = i
            } else {
                i += 1
            }
        }
        guard groups >= 1 else { return nil }
        guard (compressed && groups <= 7) || (!compressed && groups == 8) else { return nil }
        if lastEnd < n {
            let next = b[lastEnd]
            if isAlnum(next) || next == UInt8(ascii: "_") { return nil }
            // A colon ending a sentence ("to ::1: refused") is fine, one going on is not.
            if next == UInt8(ascii: ":") && lastEnd + 1 < n
                && (isHex(b[lastEnd + 1]) || b[lastEnd + 1] == UInt8(ascii: ":"))
            {
                return nil
            }
        }
        return lastEnd
    }

    // MARK: Card numbers

    /// 13–19 digits, single spaces or dashes allowed between digits, first digit 2–6, Luhn valid,
    /// not followed by more digits.
    private func card(_ start: Int) -> Int? {
        let n = b.count
        guard b[start] >= UInt8(ascii: "2") && b[start] <= UInt8(ascii: "6") else { return nil }
        // Luhn doubles every second digit counted from the right. The count is known only at
        // the end, so keep both sums: doubling the digits at even and at odd positions from the left.
        var count = 0
        var sumDoublingEven = 0
        var sumDoublingOdd = 0
        var i = start
        var end = start
        while i < n {
            let c = b[i]
            if isDigit(c) {
                if count == 19 { return nil }
                let d = Int(c &- 0x30)
                let doubled = d * 2 > 9 ? d * 2 - 9 : d * 2
                if count % 2 == 0 {
                    sumDoublingEven += doubled
                    sumDoublingOdd += d
                } else {
                    sumDoublingEven += d
                    sumDoublingOdd += doubled
                }
                count += 1
                i += 1
                end = i
            } else if (c == UInt8(ascii: " ") || c == UInt8(ascii: "-")) && i + 1 < n && isDigit(b[i + 1]) {
                i += 1
            } else {
                break
            }
        }
        guard count >= 13 else { return nil }
        if end < n && isLetter(b[end]) { return nil }
        // With an even count the rightmost digit sits at an odd position from the left.
        let sum = count % 2 == 0 ? sumDoublingEven : sumDoublingOdd
        return sum % 10 == 0 ? end : nil
    }

    // MARK: Opaque tokens

    /// The end of the token run at `start`, with any trailing `=` padding.
    private func tokenRunEnd(_ start: Int) -> Int {
        var i = start
        while i < b.count && isTokenByte(b[i]) { i += 1 }
        while i < b.count && b[i] == UInt8(ascii: "=") { i += 1 }
        return i
    }

    private func isOpaqueToken(_ start: Int, _ end: Int) -> Bool {
        guard end - start >= Hints.tokenMinLength, b[start] != UInt8(ascii: "/") else { return false }
        // Hex (with dashes): hashes, UUIDs, hex keys.
        var allHex = true
        var anyDigit = false
        for k in start..<end {
            let c = b[k]
            if isDigit(c) { anyDigit = true } else if !(isHex(c) || c == UInt8(ascii: "-")) { allHex = false; break }
        }
        if allHex && anyDigit { return true }
        // A long piece (between `_`, `-` and `/`) mixing digits, lower and upper case, or hex.
        var k = start
        while k < end {
            let pieceStart = k
            var digit = false
            var lower = false
            var upper = false
            var hexOnly = true
            while k < end {
                let c = b[k]
                if c == UInt8(ascii: "_") || c == UInt8(ascii: "-") || c == UInt8(ascii: "=") { break }
                if isDigit(c) {
                    digit = true
                } else if c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z") {
                    lower = true
                    if c > UInt8(ascii: "f") { hexOnly = false }
                } else if c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") {
                    upper = true
                    if c > UInt8(ascii: "F") { hexOnly = false }
                } else {
                    hexOnly = false
                }
                k += 1
            }
            if k - pieceStart >= Self.tokenPieceMinLength && digit && ((lower && upper) || hexOnly) { return true }
            k += 1
        }
        return false
    }
}

// MARK: - Byte classes

@inlinable @inline(__always) func isDigit(_ c: UInt8) -> Bool { c &- 0x30 < 10 }
@inlinable @inline(__always) func isLetter(_ c: UInt8) -> Bool { (c | 0x20) &- 0x61 < 26 }
@inlinable @inline(__always) func isAlnum(_ c: UInt8) -> Bool { isDigit(c) || isLetter(c) }
@inline(__always) private func isHex(_ c: UInt8) -> Bool { isDigit(c) || (c | 0x20) &- 0x61 < 6 }
@inlinable @inline(__always) func isBase64URL(_ c: UInt8) -> Bool {
    isAlnum(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: "_")
}
/// Bytes of an opaque token; `=` only as trailing padding, so `key=value` splits.
@inlinable @inline(__always) func isTokenByte(_ c: UInt8) -> Bool {
    isBase64URL(c) || c == UInt8(ascii: "+") || c == UInt8(ascii: "/")
}
/// Non-ASCII bytes count, so an internationalized local part (`müller@…`) goes whole.
@inline(__always) private func isEmailLocalByte(_ c: UInt8) -> Bool {
    c >= 0x80 || isAlnum(c) || c == UInt8(ascii: ".") || c == UInt8(ascii: "_") || c == UInt8(ascii: "%")
        || c == UInt8(ascii: "+") || c == UInt8(ascii: "-")
}
