extension CrashReport {
    /// `breadcrumbs`: the newest events recorded before the crash.
    public struct Breadcrumbs: Codable, Sendable, Equatable {
        /// The size of the ring.
        public var capacity: Int
        /// Slots left out because a writer was in the middle of them.
        public var torn: Int
        /// Oldest first.
        public var items: [Breadcrumb]

        /// The breadcrumbs of a ring of `capacity` slots, `torn` of them left out, `items` oldest first.
        public init(capacity: Int, torn: Int, items: [Breadcrumb]) {
            self.capacity = capacity
            self.torn = torn
            self.items = items
        }
    }

    /// One breadcrumb.
    public struct Breadcrumb: Codable, Sendable, Equatable {
        /// How much a breadcrumb matters, as the service recorded it.
        public enum Level: String, Codable, Sendable, CaseIterable {
            /// Detail for debugging.
            case debug
            /// Something the service did.
            case info
            /// Something that went wrong and was handled.
            case warning
            /// Something that failed.
            case error
            /// Something the service could not go on after.
            case fatal
        }

        /// When it was recorded, Unix milliseconds.
        public var timestampMs: Int64
        /// How much it mattered.
        public var level: Level
        /// e.g. `tracking`.
        public var category: String
        /// e.g. the tracked event's name.
        public var message: String
        /// At most 4 pairs, scrubbed when recorded.
        public var data: [String: String]

        /// A breadcrumb with each of its fields.
        public init(timestampMs: Int64, level: Level, category: String, message: String, data: [String: String]) {
            self.timestampMs = timestampMs
            self.level = level
            self.category = category
            self.message = message
            self.data = data
        }

        enum CodingKeys: String, CodingKey {
            case timestampMs = "timestamp_ms"
            case level, category, message, data
        }
    }
}
