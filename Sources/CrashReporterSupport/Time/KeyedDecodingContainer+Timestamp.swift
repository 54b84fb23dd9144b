extension KeyedDecodingContainer {
    /// A time stored as ISO 8601 text (`2026-11-29T14:31:05Z`, with or without a fraction), as
    /// the delivery files hold their times; nil when the member is absent or null.
    package func decodeTimestampIfPresent(forKey key: Key) throws -> Timestamp? {
        guard let text = try decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let time = Timestamp(iso8601: text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "not an ISO 8601 time")
        }
        return time
    }

    /// A time stored as ISO 8601 text that must be there.
    package func decodeTimestamp(forKey key: Key) throws -> Timestamp {
        guard let time = try decodeTimestampIfPresent(forKey: key) else {
            throw DecodingError.valueNotFound(
                Timestamp.self, DecodingError.Context(codingPath: codingPath + [key], debugDescription: "missing"))
        }
        return time
    }
}
