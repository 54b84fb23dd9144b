extension CrashReport {
    /// `task` of a thread: the Swift task the thread was running when the report was written,
    /// read by the handler from the concurrency runtime without locks (docs/async-capture.md).
    public struct RunningTask: Codable, Sendable, Equatable {
        /// The task's id, as `Task` numbers them in the runtime (unique in the process).
        public var id: UInt64
        /// The name the service gave it (`Task(name:)`), scrubbed like a breadcrumb value and cut
        /// at 63 bytes; nil when it has none or the runtime cannot say.
        public var name: String?
        /// Its priority as the runtime stores it (`TaskPriority.rawValue`: 25 high, 21 medium,
        /// 17 low, 9 background); nil when it could not be read.
        public var priority: Int?

        /// A task with each of its fields.
        public init(id: UInt64, name: String? = nil, priority: Int? = nil) {
            self.id = id
            self.name = name
            self.priority = priority
        }

        enum CodingKeys: String, CodingKey {
            case id, name, priority
        }

        // Written by hand so that `name` and `priority` are written as `null`, not left out: the
        // schema requires both members.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(priority, forKey: .priority)
        }
    }
}
