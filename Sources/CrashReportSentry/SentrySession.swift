import CrashReporterSupport

/// A release-health session: one run of the service, as it ended, in the shape of Sentry's
/// `session` envelope item (develop.sentry.dev, "Sessions"; docs/sentry.md). The plain HTTP
/// transport sends the same object as JSON. Nothing in it identifies a person or a machine:
/// `sid` is random, `did` is left out, and neither the pid nor the boot id is here.
package struct SentrySession: Codable, Sendable, Equatable {
    /// How the run ended.
    package enum Status: String, Codable, Sendable, CaseIterable {
        /// A clean end: `exit`, a return from `main`, or a SIGTERM/SIGINT.
        case exited
        /// The crash handler wrote a report.
        case crashed
        /// Neither: killed, out of memory, machine restart.
        case abnormal
    }

    package struct Attributes: Codable, Sendable, Equatable {
        package var release: String?
        package var environment: String?
    }

    /// A random UUID, new for every run.
    package var sid: String
    /// Always true: the run's one and only update (it is sent once the run is over).
    package var initial: Bool
    /// When the run started, ISO-8601 UTC.
    package var started: String
    /// When the run ended (as far as the next launch knows), ISO-8601 UTC.
    package var timestamp: String
    /// Seconds from `started` to `timestamp`.
    package var duration: Double
    package var status: Status
    /// 1 for a crashed or abnormal run (its report is an error), 0 for an exited one.
    package var errors: Int
    package var attrs: Attributes

    package init(
        sid: String, started: Timestamp, ended: Timestamp, status: Status, release: String?, environment: String?
    ) {
        self.sid = sid
        self.initial = true
        self.started = started.iso8601
        self.timestamp = ended.iso8601
        self.duration = Double(max(ended.milliseconds - started.milliseconds, 0)) / 1000
        self.status = status
        self.errors = status == .exited ? 0 : 1
        self.attrs = Attributes(release: release, environment: environment)
    }

    enum CodingKeys: String, CodingKey {
        case sid
        case initial = "init"
        case started, timestamp, duration, status, errors, attrs
    }
}

extension SentryEnvelope {
    /// An envelope of `session` items, one per session (no event, so no `event_id` in the
    /// header). `release` and `environment` replace the sessions' own where given; a session
    /// without a release is left out, since Sentry drops those. Nil when none is left.
    package static func make(
        sessions: [SentrySession], release: String?, environment: String?, sdkName: String, sdkVersion: String,
        sentAt: Timestamp = .now()
    ) throws(EncodingError) -> [UInt8]? {
        let newline = UInt8(ascii: "\n")
        var body: [UInt8] = []
        do {
            for var session in sessions {
                if let release, !release.isEmpty { session.attrs.release = release }
                if let environment, !environment.isEmpty { session.attrs.environment = environment }
                guard let value = session.attrs.release, !value.isEmpty else { continue }
                let payload = try JSON.encode(session)
                body += try JSON.encode(ItemHeader(type: "session", length: payload.count)) + [newline]
                body += payload + [newline]
            }
            guard !body.isEmpty else { return nil }
            let header = try JSON.encode(
                SessionEnvelopeHeader(sent_at: sentAt.iso8601, sdk: .init(name: sdkName, version: sdkVersion)))
            return header + [newline] + body
        } catch {
            throw .encoding(String(describing: error))
        }
    }

    private struct SessionEnvelopeHeader: Encodable {
        var sent_at: String
        var sdk: SentryEvent.SDK
    }
}
