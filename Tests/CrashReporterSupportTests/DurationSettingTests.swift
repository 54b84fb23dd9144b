import Testing

@testable import CrashReporterSupport

/// The conversions between a setting's number and a `Duration`.
@Suite("Duration and the settings' numbers")
struct DurationSettingTests {
    @Test("seconds and days become Durations, a huge number the longest one rather than a trap")
    func clamping() {
        #expect(Duration.seconds(clamping: 2.5) == .milliseconds(2500))
        #expect(Duration.seconds(clamping: 0) == .zero)
        #expect(Duration.days(1) == .seconds(86400))
        #expect(Duration.days(0.5).inDays == 0.5)
        #expect(Duration.seconds(clamping: 1e300) == Duration.longestSetting)
        #expect(Duration.days(1e300) == Duration.longestSetting)
    }

    @Test("whole milliseconds, rounded toward zero")
    func milliseconds() {
        #expect(Duration.milliseconds(2500).inMilliseconds == 2500)
        #expect(Duration.microseconds(1999).inMilliseconds == 1)
        #expect(Duration.seconds(3600).inMilliseconds == 3_600_000)
    }
}
