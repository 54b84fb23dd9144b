/// A day of the proleptic Gregorian calendar, converted to and from days since 1970-01-01
/// with the era-based method (400-year eras of 146,097 days): pure integer arithmetic, valid
/// for every year, and the same conversion the crash handler's C writer uses (CShims/iso_time.c).
package struct CivilDate: Sendable, Hashable {
    package var year: Int
    /// 1–12.
    package var month: Int
    /// 1–31.
    package var day: Int

    /// A date that exists: `nil` for February 30 or month 13.
    package init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year) else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// A date known to exist.
    init(unchecked year: Int, _ month: Int, _ day: Int) {
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// The date of a day counted from 1970-01-01 (negative before it).
    package init(daysSince1970 days: Int) {
        let shifted = days + 719_468  // from 0000-03-01, so that leap days end a year
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153  // 0 = March
        day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days from 1970-01-01 to this date.
    package var daysSince1970: Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// 0 for Sunday … 6 for Saturday (1970-01-01 was a Thursday).
    package var weekday: Int {
        let remainder = (daysSince1970 + 4) % 7
        return remainder < 0 ? remainder + 7 : remainder
    }

    package static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
