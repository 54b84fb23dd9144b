/// HTTP dates (RFC 9110 §5.6.7): IMF-fixdate out, all three historical forms in.
extension Timestamp {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let longWeekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT` (whole seconds, rounded down).
    package var httpDate: String {
        let (day, millisecond) = dayAndMillisecond
        let date = CivilDate(daysSince1970: day)
        let second = millisecond / 1000
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = String(date.year)
        return "\(Self.weekdays[date.weekday]), \(two(date.day)) \(Self.months[date.month - 1]) "
            + String(repeating: "0", count: max(0, 4 - year.count)) + year
            + " \(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60)) GMT"
    }

    /// Parses an HTTP date in any of its three forms, all in GMT:
    /// IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT`
    /// and asctime `Sun Nov  6 08:49:37 1994`. Names are case-sensitive, as the RFC says; the
    /// weekday must be a weekday name but is not checked against the date. RFC 850's two-digit
    /// year is the one in the century that puts it at most 50 years after `now`.
    package init?(httpDate text: some StringProtocol, now: Timestamp = .now()) {
        let parts = String(text).split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        var year: Int
        var month: Int
        var day: Int
        var clock: String
        if parts.count == 6, parts[0].hasSuffix(","), Self.weekdays.contains(String(parts[0].dropLast())),
            parts[5] == "GMT", parts[1].count == 2, parts[3].count == 4
        {
            // IMF-fixdate
            guard let d = Self.number(parts[1]), let m = Self.months.firstIndex(of: parts[2]),
                let y = Self.number(parts[3])
            else { return nil }
            (year, month, day, clock) = (y, m + 1, d, parts[4])
        } else if parts.count == 4, parts[0].hasSuffix(","), Self.longWeekdays.contains(String(parts[0].dropLast())),
            parts[3] == "GMT"
        {
            // RFC 850: 06-Nov-94
            let fields = parts[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3, fields[0].count == 2, fields[2].count == 2, let d = Self.number(fields[0]),
                let m = Self.months.firstIndex(of: fields[1]), let shortYear = Self.number(fields[2])
            else { return nil }
            let currentYear = CivilDate(daysSince1970: now.dayAndMillisecond.day).year
            var y = currentYear - currentYear % 100 + shortYear
            if y > currentYear + 50 { y -= 100 }
            (year, month, day, clock) = (y, m + 1, d, parts[2])
        } else {
            // asctime: "Sun Nov  6 08:49:37 1994" (a one-digit day is padded with a space)
            var fields = parts
            if fields.count == 6, fields[2].isEmpty, fields[3].count == 1 { fields.remove(at: 2) }
            guard fields.count == 5, Self.weekdays.contains(fields[0]), let m = Self.months.firstIndex(of: fields[1]),
                (1...2).contains(fields[2].count), parts.count == 6 || fields[2].count == 2,
                let d = Self.number(fields[2]), fields[4].count == 4, let y = Self.number(fields[4])
            else { return nil }
            (year, month, day, clock) = (y, m + 1, d, fields[3])
        }
        let time = clock.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard time.count == 3, time.allSatisfy({ $0.count == 2 }), let hour = Self.number(time[0]),
            let minute = Self.number(time[1]), let second = Self.number(time[2]), hour <= 23, minute <= 59,
            second <= 60, let date = CivilDate(year: year, month: month, day: day)
        else { return nil }
        let seconds = date.daysSince1970 * 86_400 + hour * 3600 + minute * 60 + second
        self.init(milliseconds: Int64(seconds) * 1000)
    }

    /// A number of ASCII digits only (`Int("+1")` would take the sign).
    private static func number(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int(text)
    }
}
