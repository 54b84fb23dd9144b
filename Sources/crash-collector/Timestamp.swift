import Foundation

/// ISO 8601 / RFC 3339 date-times with a time zone: `2026-10-23T12:00:00.123Z`,
/// `2026-10-23T15:00:00+03:00`. A time without a zone is refused.
enum Timestamp {
    /// Seconds since the Unix epoch, or nil when `text` is not such a time.
    static func parse(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        var index = 0

        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }

        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2),
            expect("Tt "), let hour = digits(2), expect(":"), let minute = digits(2), expect(":"),
            let second = digits(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour <= 23, minute <= 59,
            second <= 60
        else { return nil }
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start, index - start <= 9 else { return nil }
        }
        guard index < bytes.count else { return nil }  // no time zone
        var offset = 0
        if expect("Zz") {
            offset = 0
        } else if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let zoneHour = digits(2), zoneHour <= 23 else { return nil }
            _ = expect(":")
            guard let zoneMinute = digits(2), zoneMinute <= 59 else { return nil }
            offset = sign * (zoneHour * 3600 + zoneMinute * 60)
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Double(days * 86400 + hour * 3600 + minute * 60 + second - offset) + fraction
    }

    /// `2026-10-23T12:00:00.123Z` for a Unix time.
    static func format(_ seconds: Double) -> String {
        let milliseconds = Int64((seconds * 1000).rounded(.down))
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let millis = Int(((milliseconds % 1000) + 1000) % 1000)
        func pad(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T\(pad(parts.hour, 2)):"
            + "\(pad(parts.minute, 2)):\(pad(parts.second, 2)).\(pad(millis, 3))Z"
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (the era-based civil-days method).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = (month + 9) % 12
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }
}
