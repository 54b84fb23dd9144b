extension CrashReport {
    /// `crash.registers`: register name to value, from the signal's `ucontext`.
    ///
    /// JSON objects have no order, so the values are kept by name and listed in a fixed
    /// architectural order by ``ordered``: x86_64 `rax`..`r15`, `rip`, `eflags`; aarch64
    /// `x0`..`x30`, `sp`, `pc`, `pstate`; any other name after those, by name.
    public struct Registers: Codable, Sendable, Equatable {
        /// Each register's value by its name (`rip`, `x0`).
        public var values: [String: Address]

        /// Registers with `values`.
        public init(_ values: [String: Address]) { self.values = values }

        /// The value of the register named `name`, nil when the report has none.
        public subscript(name: String) -> Address? { values[name] }

        /// The registers in architectural order.
        public var ordered: [(name: String, value: Address)] {
            values.sorted { lhs, rhs in
                let (left, right) = (Self.rank[lhs.key], Self.rank[rhs.key])
                switch (left, right) {
                case let (l?, r?): return l < r
                case (.some, nil): return true
                case (nil, .some): return false
                case (nil, nil): return lhs.key < rhs.key
                }
            }
            .map { (name: $0.key, value: $0.value) }
        }

        static let x86_64Order =
            ["rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp"] + (8...15).map { "r\($0)" } + ["rip", "eflags"]
        static let aarch64Order = (0...30).map { "x\($0)" } + ["sp", "pc", "pstate"]

        private static let rank: [String: Int] = Dictionary(
            uniqueKeysWithValues: (x86_64Order + aarch64Order).enumerated().map { ($0.element, $0.offset) })

        public init(from decoder: any Decoder) throws {
            values = try decoder.singleValueContainer().decode([String: Address].self)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(values)
        }
    }
}
