import Synchronization

/// ISO 8601 / RFC 3339 text: `2026-10-23T12:04:31.512Z` out, with a zone of any kind in.
extension Timestamp {
    /// `2026-10-23T12:04:31.512Z`: UTC, always with milliseconds.
    package var iso8601: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        appendISO8601(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the 24 bytes of ``iso8601`` (more for years outside 0–9999, which get a sign or
    /// more digits). Pure arithmetic: `gmtime_r` would take glibc's time zone lock on every
    /// call, and this runs for every tracked event.
    package func appendISO8601(to bytes: inout [UInt8]) {
        let (day, millisecond) = dayAndMillisecond
        let date = Self.cachedDate(daysSince1970: day)
        let second = millisecond / 1000
        guard (0...9999).contains(date.year) else {
            bytes.append(contentsOf: Array(Self.expandedYear(date.year).utf8))
            Self.appendRest(date, second: second, millisecond: millisecond, to: &bytes)
            return
        }
        var text: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes
        withUnsafeMutableBytes(of: &text) { buffer in
            Self.put(date.year, width: 4, at: 0, in: buffer)
            buffer[4] = UInt8(ascii: "-")
            Self.put(date.month, width: 2, at: 5, in: buffer)
            buffer[7] = UInt8(ascii: "-")
            Self.put(date.day, width: 2, at: 8, in: buffer)
            buffer[10] = UInt8(ascii: "T")
            Self.put(second / 3600, width: 2, at: 11, in: buffer)
            buffer[13] = UInt8(ascii: ":")
            Self.put(second / 60 % 60, width: 2, at: 14, in: buffer)
            buffer[16] = UInt8(ascii: ":")
            Self.put(second % 60, width: 2, at: 17, in: buffer)
            buffer[19] = UInt8(ascii: ".")
            Self.put(millisecond % 1000, width: 3, at: 20, in: buffer)
            buffer[23] = UInt8(ascii: "Z")
            bytes.append(contentsOf: buffer)
        }
    }

    /// Zero-padded decimal digits of `value` into `buffer[offset ..< offset + width]`.
    @inline(__always)
    private static func put(_ value: Int, width: Int, at offset: Int, in buffer: UnsafeMutableRawBufferPointer) {
        var rest = value
        for index in stride(from: offset + width - 1, through: offset, by: -1) {
            buffer[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
    }

    /// `-0001`, `10000`: ISO 8601's expanded years, for times nobody should meet.
    private static func expandedYear(_ year: Int) -> String {
        let digits = String(year.magnitude)
        return (year < 0 ? "-" : "") + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func appendRest(_ date: CivilDate, second: Int, millisecond: Int, to bytes: inout [UInt8]) {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = millisecond % 1000
        let fraction = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        let rest =
            "-\(two(date.month))-\(two(date.day))T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))"
            + ".\(fraction)Z"
        bytes.append(contentsOf: Array(rest.utf8))
    }

    /// The last day converted, `days << 32 | year << 16 | month << 8 | day` (days 0 ..< 2^31,
    /// years 0 ..< 65,536), or all ones: the events of one day share the calendar arithmetic.
    private static let lastDay = Atomic<UInt64>(.max)

    private static func cachedDate(daysSince1970 days: Int) -> CivilDate {
        guard days >= 0, days < 1 << 31 else { return CivilDate(daysSince1970: days) }
        let cached = lastDay.load(ordering: .relaxed)
        if cached != .max, cached >> 32 == UInt64(days) {
            return CivilDate(unchecked: Int(cached >> 16 & 0xFFFF), Int(cached >> 8 & 0xFF), Int(cached & 0xFF))
        }
        let date = CivilDate(daysSince1970: days)
        if date.year < 1 << 16 {
            lastDay.store(
                UInt64(days) << 32 | UInt64(date.year) << 16 | UInt64(date.month) << 8 | UInt64(date.day),
                ordering: .relaxed)
        }
        return date
    }

    /// Parses an RFC 3339 date-time (ISO 8601's extended form with a zone):
    /// `2026-10-23T12:00:00Z`, `2026-10-23t12:00:00.123456+03:00`, `2026-10-23 12:00:00-0130`.
    /// The date must exist (no February 30), the zone is required (`Z`, `z` or `±hh:mm`, the
    /// colon optional), a fraction has 1–9 digits and is cut to milliseconds, and a leap second
    /// (`:60`) counts as the first second of the next minute. `nil` for anything else.
    package init?(iso8601 text: some StringProtocol) {
        var bytes = Array(text.utf8)[...]
        func digits(_ count: Int) -> Int? {
            guard bytes.count >= count else { return nil }
            var value = 0
            for byte in bytes.prefix(count) {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            bytes.removeFirst(count)
            return value
        }
        func expect(_ characters: StaticString) -> Bool {
            guard let first = bytes.first,
                characters.withUTF8Buffer({ $0.contains(first) })
            else { return false }
            bytes.removeFirst()
            return true
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2),
            expect("Tt "), let hour = digits(2), expect(":"), let minute = digits(2), expect(":"),
            let second = digits(2), let date = CivilDate(year: year, month: month, day: day),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        var millisecond = 0
        if expect(".") {
            var count = 0
            while let byte = bytes.first, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                if count < 3 { millisecond = millisecond * 10 + Int(byte - UInt8(ascii: "0")) }
                count += 1
                bytes.removeFirst()
            }
            guard (1...9).contains(count) else { return nil }
            if count < 3 { for _ in count..<3 { millisecond *= 10 } }
        }
        var offset = 0
        if expect("Zz") {
            offset = 0
        } else if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            bytes.removeFirst()
            guard let zoneHour = digits(2), zoneHour <= 23 else { return nil }
            _ = expect(":")
            guard let zoneMinute = digits(2), zoneMinute <= 59 else { return nil }
            offset = (sign == UInt8(ascii: "-") ? -1 : 1) * (zoneHour * 3600 + zoneMinute * 60)
        } else {
            return nil
        }
        guard bytes.isEmpty else { return nil }
        let seconds = date.daysSince1970 * 86_400 + hour * 3600 + minute * 60 + second - offset
        self.init(milliseconds: Int64(seconds) * 1000 + Int64(millisecond))
    }
}
