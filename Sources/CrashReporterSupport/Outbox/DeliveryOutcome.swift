/// What became of one item an outbox offered (a crash report, a batch of events): the one
/// outcome both outboxes decide on. A server's answer maps to it by one rule
/// (`init(status:serverWait:reason:)`); what each outbox then does with it (count attempts,
/// back off, halve a batch) is its own policy on top
/// (docs/decisions/0150-crash-reports-and-analytics-batches-share-one-outbox.md).
package enum DeliveryOutcome: Sendable, Equatable {
    /// Received (2xx), or nothing had to go out: the item leaves the outbox.
    case delivered
    /// Not taken this time but worth another try: no answer, 408, 429 or 5xx. The wait is what
    /// the server asked for (`Retry-After`, a rate limit), nil when it said nothing; the reason
    /// is one line (`HTTP 503: busy`, `network error: connection refused`).
    case retryAfter(Duration?, reason: String)
    /// Refused for good: any other status, or a request that could not be made here (no
    /// status). The reason is kept with the item set aside.
    case rejected(status: Int?, reason: String)
    /// The item itself cannot be read: set aside with why, never sent.
    case damaged(reason: String)
}

extension DeliveryOutcome {
    /// The longest wait a server's answer is taken as before an outbox's own bound cuts it:
    /// a year, so that no absurd `Retry-After` overflows a `Duration`.
    package static let longestServerWait = Duration.seconds(365 * 86400)

    /// The one reading of a server's answer: 2xx delivered; 408, 429 and 5xx retried after
    /// `serverWait` (`HTTP 503: <reason>`); any other status rejected with the server's words
    /// (`HTTP <status>` when it said none).
    package init(status: Int, serverWait: Duration?, reason: String) {
        if (200..<300).contains(status) {
            self = .delivered
        } else if Self.isTransient(status) {
            self = .retryAfter(serverWait, reason: reason.isEmpty ? "HTTP \(status)" : "HTTP \(status): \(reason)")
        } else {
            self = .rejected(status: status, reason: reason.isEmpty ? "HTTP \(status)" : reason)
        }
    }

    /// No answer at all (refused, reset, timed out, DNS or TLS failure): tried again later.
    package static func noAnswer(_ reason: String) -> DeliveryOutcome {
        .retryAfter(nil, reason: "network error: \(reason)")
    }

    /// 408, 429 and 5xx are worth retrying; any other 4xx is a verdict on the item.
    package static func isTransient(_ status: Int) -> Bool {
        status == 408 || status == 429 || (500..<600).contains(status)
    }

    /// A server's wait of `seconds` as a `Duration`, at most `longestServerWait`; nil stays nil.
    package static func serverWait(seconds: Double?) -> Duration? {
        guard let seconds, !seconds.isNaN else { return nil }
        return .seconds(Swift.min(Swift.max(seconds, 0), longestServerWait.inSeconds))
    }
}

extension DeliveryOutcome: CustomStringConvertible {
    /// One line for a diagnostic: `delivered`, `HTTP 503: busy`, `network error: connection refused`.
    package var description: String {
        switch self {
        case .delivered: "delivered"
        case .retryAfter(_, let reason): reason
        case .rejected(_, let reason): reason
        case .damaged(let reason): "damaged: \(reason)"
        }
    }
}
