/// Why an outbox item was set aside (refused, or damaged), kept beside it as `<id>.reason` (for a
/// crash report `rejected/<id>.reason`; `OutboxFolder.setAside` writes it): JSON with sorted keys,
/// `{"at":"2026-11-29T14:31:05.120Z","reason":"bad key","status":401}` (`status` left out when
/// no server gave one). Notes of earlier versions (whole seconds, `\/` escapes) read the same way.
package struct RejectionNote: Codable, Sendable, Equatable {
    package var status: Int?
    package var reason: String
    package var at: Timestamp

    package init(status: Int?, reason: String, at: Timestamp) {
        self.status = status
        self.reason = reason
        self.at = at
    }

    enum CodingKeys: String, CodingKey {
        case status, reason, at
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try container.decodeIfPresent(Int.self, forKey: .status)
        reason = try container.decode(String.self, forKey: .reason)
        at = try container.decodeTimestamp(forKey: .at)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(status, forKey: .status)
        try container.encode(reason, forKey: .reason)
        try container.encode(at.iso8601, forKey: .at)
    }
}
