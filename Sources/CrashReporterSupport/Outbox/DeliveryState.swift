/// The retry state of one outbox item, kept next to it on disk (`<id>.delivery`, for a crash
/// report `pending/<id>.delivery`) so that it survives restarts; `OutboxFolder` reads and saves it.
///
/// The file is JSON with sorted keys, the times as ISO 8601 text in UTC with milliseconds:
/// `{"attempts":1,"first_attempt":"2026-11-29T14:30:35.120Z","last_error":"HTTP 503",
/// "next_attempt":"2026-11-29T14:31:05.120Z"}`. Files of earlier versions (Foundation's
/// `JSONEncoder` with `.iso8601` dates: the same members, whole seconds, `\/` escapes) read the
/// same way.
package struct DeliveryState: Codable, Sendable, Equatable {
    package var attempts: Int
    /// When the item was first offered (an age limit counts from here).
    package var firstAttempt: Timestamp?
    /// Not before this time.
    package var nextAttempt: Timestamp?
    package var lastError: String?

    package init(
        attempts: Int = 0, firstAttempt: Timestamp? = nil, nextAttempt: Timestamp? = nil, lastError: String? = nil
    ) {
        self.attempts = attempts
        self.firstAttempt = firstAttempt
        self.nextAttempt = nextAttempt
        self.lastError = lastError
    }
}

extension DeliveryState {
    enum CodingKeys: String, CodingKey {
        case attempts
        case firstAttempt = "first_attempt"
        case nextAttempt = "next_attempt"
        case lastError = "last_error"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        attempts = try container.decode(Int.self, forKey: .attempts)
        firstAttempt = try container.decodeTimestampIfPresent(forKey: .firstAttempt)
        nextAttempt = try container.decodeTimestampIfPresent(forKey: .nextAttempt)
        lastError = try container.decodeIfPresent(String.self, forKey: .lastError)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(attempts, forKey: .attempts)
        try container.encodeIfPresent(firstAttempt?.iso8601, forKey: .firstAttempt)
        try container.encodeIfPresent(nextAttempt?.iso8601, forKey: .nextAttempt)
        try container.encodeIfPresent(lastError, forKey: .lastError)
    }
}
