import Foundation
import TestSupport
import Testing

@testable import CrashReporterSupport

@Suite("Time")
struct TimeTests {
    /// glibc's own calendar conversion, as an independent check.
    private func gmtime(_ seconds: Int) -> (year: Int, month: Int, day: Int, weekday: Int) {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_wday))
    }

    @Test("days and civil dates convert both ways, as glibc converts them")
    func civilDates() {
        for days in stride(from: -800_000, through: 3_000_000, by: 997) {
            let date = CivilDate(daysSince1970: days)
            #expect(date.daysSince1970 == days)
            let expected = gmtime(days * 86_400)
            #expect(date.year == expected.year && date.month == expected.month && date.day == expected.day)
            #expect(date.weekday == expected.weekday)
        }
        #expect(CivilDate(daysSince1970: 0) == CivilDate(year: 1970, month: 1, day: 1))
        #expect(CivilDate(daysSince1970: 0).weekday == 4)  // a Thursday
    }

    @Test("leap years and dates that do not exist")
    func validDates() {
        #expect(CivilDate(year: 2024, month: 2, day: 29) != nil)
        #expect(CivilDate(year: 2000, month: 2, day: 29) != nil)
        #expect(CivilDate(year: 1900, month: 2, day: 29) == nil)
        #expect(CivilDate(year: 2100, month: 2, day: 29) == nil)
        #expect(CivilDate(year: 2026, month: 2, day: 30) == nil)
        #expect(CivilDate(year: 2026, month: 4, day: 31) == nil)
        #expect(CivilDate(year: 2026, month: 13, day: 1) == nil)
        #expect(CivilDate(year: 2026, month: 1, day: 0) == nil)
        #expect(
            CivilDate(year: 2100, month: 3, day: 1)!.daysSince1970
                - CivilDate(year: 2100, month: 2, day: 28)!
                .daysSince1970 == 1)
    }

    @Test("ISO 8601 text with milliseconds, as Foundation's formatter writes it")
    func iso8601Output() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        // From 1600 on: Foundation switches to the Julian calendar before 1582; ours does not.
        var generator = SeededGenerator(seed: 3)
        let samples: [Int64] =
            [0, -1, 1, 951_782_400_000, 4_107_542_399_999, 253_402_300_799_999]
            + (0..<3000).map { _ in Int64.random(in: -11_676_096_000_000...253_402_300_799_999, using: &generator) }
        for milliseconds in samples {
            let ours = Timestamp(milliseconds: milliseconds).iso8601
            #expect(ours == formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000)))
            #expect(ours.utf8.count == 24)
            #expect(Timestamp(iso8601: ours) == Timestamp(milliseconds: milliseconds))
        }
        #expect(Timestamp(milliseconds: 0).iso8601 == "1970-01-01T00:00:00.000Z")
        #expect(Timestamp(milliseconds: -1).iso8601 == "1969-12-31T23:59:59.999Z")
    }

    @Test("years outside 0–9999 get a sign or more digits instead of wrong ones")
    func expandedYears() {
        let late = Timestamp(milliseconds: 253_402_300_800_000)  // 10000-01-01
        #expect(late.iso8601 == "10000-01-01T00:00:00.000Z")
        let early = Timestamp(milliseconds: -62_198_755_200_000)  // -0001-01-01
        #expect(early.iso8601 == "-0001-01-01T00:00:00.000Z")
    }

    @Test(
        "parses RFC 3339 times with any zone",
        arguments: [
            ("2026-10-23T12:00:00Z", 1_792_756_800_000),
            ("2026-10-23t12:00:00z", 1_792_756_800_000),
            ("2026-10-23 12:00:00Z", 1_792_756_800_000),
            ("2026-10-23T15:00:00+03:00", 1_792_756_800_000),
            ("2026-10-23T15:00:00+0300", 1_792_756_800_000),
            ("2026-10-23T10:30:00-01:30", 1_792_756_800_000),
            ("2026-10-23T12:00:00.5Z", 1_792_756_800_500),
            ("2026-10-23T12:00:00.123456789Z", 1_792_756_800_123),
            ("2026-10-23T12:00:00.999999Z", 1_792_756_800_999),
            ("2026-12-31T23:59:60Z", 1_798_761_600_000),
            ("1970-01-01T00:00:00Z", 0),
            ("1969-12-31T23:59:59.999Z", -1),
            ("2024-02-29T00:00:00Z", 1_709_164_800_000),
            ("2100-03-01T00:00:00Z", 4_107_542_400_000),
        ] as [(String, Int64)])
    func parsesISO8601(text: String, milliseconds: Int64) {
        #expect(Timestamp(iso8601: text) == Timestamp(milliseconds: milliseconds))
    }

    @Test(
        "refuses what is not an RFC 3339 time",
        arguments: [
            "", "2026-10-23", "2026-10-23T12:00:00", "2026-10-23T12:00Z", "2026-02-30T00:00:00Z",
            "2100-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-10-23T24:00:00Z", "2026-10-23T12:60:00Z",
            "2026-10-23T12:00:61Z", "2026-10-23T12:00:00.Z", "2026-10-23T12:00:00.1234567890Z",
            "2026-10-23T12:00:00+24:00", "2026-10-23T12:00:00+03", "2026-10-23T12:00:00Z ", " 2026-10-23T12:00:00Z",
            "2026-1-23T12:00:00Z", "26-10-23T12:00:00Z", "2026/10/23T12:00:00Z", "2026-10-23T12:00:00UTC",
        ])
    func refusesISO8601(text: String) {
        #expect(Timestamp(iso8601: text) == nil)
    }

    @Test("IMF-fixdate out, as Foundation's formatter writes it")
    func httpDateOutput() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var generator = SeededGenerator(seed: 8)
        for _ in 0..<2000 {
            let seconds = Int64.random(in: -1_000_000_000...5_000_000_000, using: &generator)
            let ours = Timestamp(milliseconds: seconds * 1000).httpDate
            #expect(ours == formatter.string(from: Date(timeIntervalSince1970: Double(seconds))))
            #expect(Timestamp(httpDate: ours) == Timestamp(milliseconds: seconds * 1000))
        }
        #expect(Timestamp(milliseconds: 784_111_777_999).httpDate == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    @Test("parses the three forms of HTTP date")
    func parsesHTTPDates() throws {
        let expected = Timestamp(milliseconds: 784_111_777_000)
        let now = try #require(Timestamp(iso8601: "2026-10-23T12:00:00Z"))
        #expect(Timestamp(httpDate: "Sun, 06 Nov 1994 08:49:37 GMT", now: now) == expected)
        #expect(Timestamp(httpDate: "Sunday, 06-Nov-94 08:49:37 GMT", now: now) == expected)
        #expect(Timestamp(httpDate: "Sun Nov  6 08:49:37 1994", now: now) == expected)
        #expect(Timestamp(httpDate: "Wed Nov 16 08:49:37 1994", now: now) == expected.adding(seconds: 10 * 86_400))
        // RFC 850's two-digit year: at most 50 years ahead of now, else the century before.
        #expect(Timestamp(httpDate: "Monday, 01-Jan-76 00:00:00 GMT", now: now)?.iso8601.prefix(4) == "2076")
        #expect(Timestamp(httpDate: "Monday, 01-Jan-77 00:00:00 GMT", now: now)?.iso8601.prefix(4) == "1977")
    }

    @Test(
        "refuses what is not an HTTP date",
        arguments: [
            "", "sun, 06 Nov 1994 08:49:37 GMT", "Sun, 06 nov 1994 08:49:37 GMT", "Sun, 6 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 1994 08:49 GMT", "Sun, 31 Feb 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 25:49:37 GMT", "Funday, 06-Nov-94 08:49:37 GMT", "Sun, 06-Nov-94 08:49:37 GMT",
            "Sun Nov 6 08:49:37 1994", "Sun Nov  16 08:49:37 1994", "Sun, 06 Nov +994 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37 GMT extra",
        ])
    func refusesHTTPDates(text: String) {
        #expect(Timestamp(httpDate: text) == nil)
    }

    @Test("Retry-After: delay seconds or an HTTP date, never negative")
    func retryAfter() throws {
        let now = try #require(Timestamp(httpDate: "Sun, 06 Nov 1994 08:48:07 GMT"))
        #expect(RetryAfter.seconds("120", now: now) == 120)
        #expect(RetryAfter.seconds(" 7\t", now: now) == 7)
        #expect(RetryAfter.seconds("1.5", now: now) == 1.5)
        #expect(RetryAfter.seconds("0", now: now) == 0)
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 90)
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:00:00 GMT", now: now) == 0)
        #expect(RetryAfter.seconds("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == 90)
        for refused in ["", " ", "-5", "+5", "soon", "1e3", "inf", "nan", "0x10", "1.", ".5", "5 s"] {
            #expect(RetryAfter.seconds(refused, now: now) == nil, "\(refused)")
        }
        #expect(RetryAfter.seconds(nil as String?, now: now) == nil)
        #expect(RetryAfter.seconds(Substring("42"), now: now) == 42)
    }

    @Test("now() reads the real-time clock; seconds round to the nearest millisecond")
    func nowAndSeconds() {
        let ours = Timestamp.now()
        let foundation = Date().timeIntervalSince1970
        #expect(abs(ours.seconds - foundation) < 60)
        #expect(Timestamp(seconds: 0.512).milliseconds == 512)
        #expect(Timestamp(seconds: 1_792_756_671.512).milliseconds == 1_792_756_671_512)
        #expect(Timestamp(seconds: -0.0015).milliseconds == -2)
        #expect(Timestamp(seconds: .infinity).milliseconds == .max)
        #expect(Timestamp(seconds: .nan).milliseconds == 0)
        #expect(Timestamp(milliseconds: 1500).seconds(since: Timestamp(milliseconds: 4000)) == -2.5)
        #expect(Timestamp(milliseconds: 1000).adding(seconds: 0.25) == Timestamp(milliseconds: 1250))
        #expect(Timestamp(milliseconds: 1) < Timestamp(milliseconds: 2))
    }
}
