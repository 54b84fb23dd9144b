import CrashReporterSupport

/// One event as analytics providers receive it: validated, scrubbed, stamped with its id,
/// time, install id and the consent epoch it was made in. Made only while analytics consent
/// is granted.
public struct AnalyticsEvent: Sendable, Hashable {
    /// A version 4 UUID as its 36 lower-case characters (`8-4-4-4-12`), made when the event is
    /// created and kept across retries, so a resent batch is not counted twice. A provider may
    /// refuse an event whose id is not a UUID in that form (the events API does).
    public let id: String
    /// The event's name, valid by ``EventName``'s rule.
    public let name: String
    /// Scrubbed values (`Scrubber.scrub`), keys as the event gave them.
    public let parameters: [String: TrackingValue]
    /// When the event was tracked, in seconds since 1970-01-01T00:00:00Z (Unix time, UTC), to
    /// the millisecond. `Date(timeIntervalSince1970:)` makes a `Date` of it.
    public let occurredAt: Double
    /// The random install id (`<state>/analytics/install-id`), made with the first event after
    /// consent was granted and deleted when it is revoked.
    public let installID: String
    /// Which grant of consent the event belongs to. Grants are numbered 1, 2, …; an event from
    /// an earlier grant is never sent.
    public let consentEpoch: UInt64
    /// `id` as the bytes it was made from, for the events the tracker makes, so that a
    /// provider of this package does not parse the text again on the tracking thread; nil for
    /// an id given as text. Not part of the event's identity (`==`, `hash`).
    package let uuid: UUIDBytes?

    /// An event with each of its fields; `id` and `occurredAt` default to a new UUID and now. The
    /// tracker makes events itself; a provider's tests make their own with this.
    public init(
        id: String = AnalyticsEvent.makeID(),
        name: String,
        parameters: [String: TrackingValue],
        occurredAt: Double = AnalyticsEvent.currentTime(),
        installID: String,
        consentEpoch: UInt64
    ) {
        self.id = id
        self.name = name
        self.parameters = parameters
        self.occurredAt = occurredAt
        self.installID = installID
        self.consentEpoch = consentEpoch
        self.uuid = nil
    }

    /// An event whose id is `uuid`, kept as bytes too: how the tracker makes its events (with
    /// `UUIDBytes.fast()`, as ``makeID()`` does).
    init(
        uuid: UUIDBytes, name: String, parameters: [String: TrackingValue], occurredAt: Double, installID: String,
        consentEpoch: UInt64
    ) {
        self.id = uuid.description
        self.name = name
        self.parameters = parameters
        self.occurredAt = occurredAt
        self.installID = installID
        self.consentEpoch = consentEpoch
        self.uuid = uuid
    }

    public static func == (lhs: AnalyticsEvent, rhs: AnalyticsEvent) -> Bool {
        lhs.id == rhs.id && lhs.name == rhs.name && lhs.parameters == rhs.parameters
            && lhs.occurredAt == rhs.occurredAt && lhs.installID == rhs.installID
            && lhs.consentEpoch == rhs.consentEpoch
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(name)
        hasher.combine(parameters)
        hasher.combine(occurredAt)
        hasher.combine(installID)
        hasher.combine(consentEpoch)
    }

    /// A new event id. Made without a system call (`UUIDBytes.fast()`): reading the kernel's
    /// random source for every event would cost more than the rest of `track` together. The
    /// ids only have to be unique (the events API deduplicates by them), not secret.
    @usableFromInline
    static func makeID() -> String { UUIDBytes.fast().description }

    /// The real-time clock, in seconds since 1970 with whole milliseconds.
    @usableFromInline
    static func currentTime() -> Double { Timestamp.now().seconds }
}
