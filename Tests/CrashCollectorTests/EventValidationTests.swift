import CrashReporterSupport
import Foundation
import Testing

@testable import CrashCollectorParsers
@testable import crash_collector

@Suite struct EventValidationTests {
    /// 2026-10-23T12:00:00Z
    static let now = 1_792_756_800.0

    static func event(_ changes: [String: JSONValue?] = [:]) -> JSONValue {
        var members: [String: JSONValue] = [
            "event_id": "0b6f6a3e-3c3e-4d8a-8f6e-1f9b8a2c7d10", "name": "purchase_completed",
            "anonymous_id": "C5E1B0B2-4F7A-4E0F-9C1D-2A6B7E8F9012", "occurred_at": "2026-10-23T11:59:00.512Z",
            "properties": ["product_id": "pro_yearly", "price": .number(.double(39.99)), "trial": true, "n": .null],
            "context": ["app_version": "2.4.0", "unknown": "x", "locale": .number(.int(5))],
        ]
        for (key, value) in changes { members[key] = value }
        return .object(members)
    }

    private func code(_ event: JSONValue) -> EventValidation.Code? {
        if case .failure(let rejection) = EventValidation.validate(event, now: Self.now) { return rejection.code }
        return nil
    }

    @Test func validEventIsAcceptedWithOnlyKnownContext() throws {
        let accepted = try EventValidation.validate(Self.event(), now: Self.now).get()
        #expect(accepted.name == "purchase_completed")
        #expect(!accepted.clamped)
        #expect(accepted.occurredAt == "2026-10-23T11:59:00.512Z")
        #expect(accepted.context == ["app_version": "2.4.0"])
        #expect(accepted.properties.count == 4)
    }

    @Test func eachRejectionCode() {
        #expect(code(.array([])) == .invalidEvent)
        #expect(code("text") == .invalidEvent)
        #expect(code(Self.event(["name": nil])) == .invalidName)
        #expect(code(Self.event(["name": "has space"])) == .invalidName)
        #expect(code(Self.event(["name": .string(String(repeating: "a", count: 65))])) == .invalidName)
        #expect(code(Self.event(["name": .number(.int(3))])) == .invalidName)
        #expect(code(Self.event(["name": "$"])) == .invalidName)
        #expect(code(Self.event(["name": "$session_start"])) == .reservedName)
        #expect(code(Self.event(["name": .string("$" + String(repeating: "a", count: 63))])) == .reservedName)
        #expect(code(Self.event(["name": .string("$" + String(repeating: "a", count: 64))])) == .invalidName)
        #expect(code(Self.event(["event_id": nil])) == .invalidID)
        #expect(code(Self.event(["event_id": "not-a-uuid"])) == .invalidID)
        #expect(code(Self.event(["anonymous_id": ""])) == .invalidID)
        #expect(code(Self.event(["anonymous_id": .string(String(repeating: "a", count: 129))])) == .invalidID)
        #expect(code(Self.event(["user_id": .number(.int(7))])) == .invalidID)
        #expect(code(Self.event(["user_id": ""])) == .invalidID)
        #expect(code(Self.event(["user_id": .null])) == nil)
        #expect(code(Self.event(["occurred_at": nil])) == .invalidTimestamp)
        #expect(code(Self.event(["occurred_at": "2026-10-23T12:00:00"])) == .invalidTimestamp)
        #expect(code(Self.event(["occurred_at": "yesterday"])) == .invalidTimestamp)
        #expect(code(Self.event(["occurred_at": "2026-02-30T12:00:00Z"])) == .invalidTimestamp)
        #expect(code(Self.event(["properties": "flat"])) == .invalidProperties)
        #expect(code(Self.event(["properties": ["nested": ["a": 1]]])) == .invalidProperties)
        #expect(code(Self.event(["properties": ["list": [1, 2]]])) == .invalidProperties)
        #expect(code(Self.event(["properties": ["": 1]])) == .invalidProperties)
        #expect(code(Self.event(["properties": .object([String(repeating: "k", count: 65): 1])])) == .invalidProperties)
        #expect(
            code(Self.event(["properties": ["s": .string(String(repeating: "x", count: 1025))]])) == .invalidProperties)
        #expect(code(Self.event(["properties": ["s": .string(String(repeating: "x", count: 1024))]])) == nil)
        let fifty = JSONValue.object(
            Dictionary(uniqueKeysWithValues: (0..<50).map { ("k\($0)", JSONValue.number(.int(Int64($0)))) }))
        let fiftyOne = JSONValue.object(
            Dictionary(uniqueKeysWithValues: (0..<51).map { ("k\($0)", JSONValue.number(.int(Int64($0)))) }))
        #expect(code(Self.event(["properties": fifty])) == nil)
        #expect(code(Self.event(["properties": fiftyOne])) == .tooManyProperties)
        let big = JSONValue.object(
            Dictionary(
                uniqueKeysWithValues: (0..<10).map { ("k\($0)", JSONValue.string(String(repeating: "x", count: 1000))) }
            ))
        #expect(code(Self.event(["properties": big])) == .eventTooLarge)
    }

    @Test func outOfRangeTimesAreClampedToTheReceiveTime() throws {
        let old = try EventValidation.validate(Self.event(["occurred_at": "2026-10-01T00:00:00Z"]), now: Self.now).get()
        #expect(old.clamped)
        #expect(old.occurredAt == "2026-10-23T12:00:00.000Z")
        let future = try EventValidation.validate(Self.event(["occurred_at": "2026-10-23T12:06:00Z"]), now: Self.now)
            .get()
        #expect(future.clamped)
        let nearFuture = try EventValidation.validate(
            Self.event(["occurred_at": "2026-10-23T15:04:00+03:00"]), now: Self.now
        ).get()
        #expect(!nearFuture.clamped)
        let sixDays = try EventValidation.validate(Self.event(["occurred_at": "2026-10-17T12:00:01Z"]), now: Self.now)
            .get()
        #expect(!sixDays.clamped)
    }

    @Test func timestamps() {
        #expect(Timestamp(iso8601: "1970-01-01T00:00:00Z")?.seconds == 0)
        #expect(
            Timestamp(iso8601: "2026-10-23T12:00:00.123Z").map { abs($0.seconds - 1_792_756_800.123) < 1e-6 } == true)
        #expect(Timestamp(iso8601: "2026-10-23T15:00:00+03:00")?.seconds == 1_792_756_800)
        #expect(Timestamp(iso8601: "2026-10-23T10:30:00-0130")?.seconds == 1_792_756_800)
        #expect(Timestamp(iso8601: "2024-02-29T00:00:00Z") != nil)
        #expect(Timestamp(iso8601: "2023-02-29T00:00:00Z") == nil)
        #expect(Timestamp(iso8601: "2026-10-23T12:00:00") == nil)
        #expect(Timestamp(iso8601: "2026-10-23T12:00:00Zjunk") == nil)
        #expect(Timestamp(iso8601: "2026-10-23T24:00:00Z") == nil)
        #expect(Timestamp(iso8601: "") == nil)
        #expect(Timestamp(seconds: 1_792_756_800.5).iso8601 == "2026-10-23T12:00:00.500Z")
    }

    @Test func rateLimiterWaitsAndRefills() {
        var limiter = RateLimiter(perMinute: 60)
        #expect(limiter.take(["k": 50], now: 0) == 0)
        #expect(limiter.take(["k": 20], now: 0) == 10)  // 10 missing at 1 per second
        #expect(limiter.take(["k": 10], now: 0) == 0)  // the refused request took nothing
        #expect(limiter.take(["k": 1], now: 0) > 0)
        #expect(limiter.take(["k": 5], now: 5) == 0)
        #expect(limiter.take(["other": 60], now: 5) == 0)
        #expect(limiter.take(["k": 61], now: 1000) == 60)
        #expect(limiter.take(["a": 1, "k": 60], now: 1000) == 0)
    }
}
