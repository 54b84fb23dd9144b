extension CrashReport {
    /// `snapshot`: why a report that is not a crash was written (null in a crash report).
    public struct Snapshot: Codable, Sendable, Equatable {
        /// What the service said when it asked for the snapshot, or the watchdog's reason for a
        /// hang (at most 255 bytes).
        public var reason: String
        /// The heartbeat that was late, for a hang; nil for a snapshot the service asked for.
        public var heartbeat: Heartbeat?

        /// A snapshot taken for `reason`, with the late `heartbeat` of a hang.
        public init(reason: String, heartbeat: Heartbeat? = nil) {
            self.reason = reason
            self.heartbeat = heartbeat
        }

        enum CodingKeys: String, CodingKey {
            case reason, heartbeat
        }

        // Written by hand so that `heartbeat` is written as `null`, not left out: the schema
        // requires it.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(reason, forKey: .reason)
            try container.encode(heartbeat, forKey: .heartbeat)
        }
    }

    /// `snapshot.heartbeat`: a heartbeat the service promised and did not beat in time.
    public struct Heartbeat: Codable, Sendable, Equatable {
        /// The heartbeat's name (at most 63 bytes).
        public var name: String
        /// The kernel id of the thread that beats it.
        public var threadID: Int
        /// How late it was when the snapshot was taken, in milliseconds.
        public var lateMs: Int64

        /// A heartbeat with each of its fields.
        public init(name: String, threadID: Int, lateMs: Int64) {
            self.name = name
            self.threadID = threadID
            self.lateMs = lateMs
        }

        enum CodingKeys: String, CodingKey {
            case name
            case threadID = "thread_id"
            case lateMs = "late_ms"
        }
    }
}
