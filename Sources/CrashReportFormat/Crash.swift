extension CrashReport {
    /// `crash`: what happened and where.
    public struct Crash: Codable, Sendable, Equatable {
        /// The signal that ended the process.
        public var signal: Signal
        /// The Swift runtime's fatal-error message, when it recorded one.
        public var message: String?
        /// The thread that crashed.
        public var thread: Thread
        /// The crashing thread's registers when the signal arrived.
        public var registers: Registers
        /// The crashing thread's stack, innermost first.
        public var frames: [Frame]
        /// The stack had more frames than the report keeps (256).
        public var framesTruncated: Bool
        /// Why unwinding stopped early, when it did (`fault`, `init_failed`, `step_failed`; reports from
        /// before the unwinder moved to libgcc may say `no_libunwind`).
        public var unwindError: String?
        /// Frames left out between the innermost and the outermost ones kept (a deep recursion);
        /// 0 in a version 1 report.
        public var framesOmitted: Int
        /// Where in ``frames`` the left-out frames were; `frames.count` when none were.
        public var framesOmittedAt: Int

        /// A crash with each of its fields; `framesOmittedAt` defaults to `frames.count` (none omitted).
        public init(
            signal: Signal, message: String?, thread: Thread, registers: Registers, frames: [Frame],
            framesTruncated: Bool, unwindError: String?, framesOmitted: Int = 0, framesOmittedAt: Int? = nil
        ) {
            self.signal = signal
            self.message = message
            self.thread = thread
            self.registers = registers
            self.frames = frames
            self.framesTruncated = framesTruncated
            self.unwindError = unwindError
            self.framesOmitted = framesOmitted
            self.framesOmittedAt = framesOmittedAt ?? frames.count
        }

        enum CodingKeys: String, CodingKey {
            case signal, message, thread, registers, frames
            case framesTruncated = "frames_truncated"
            case unwindError = "unwind_error"
            case framesOmitted = "frames_omitted"
            case framesOmittedAt = "frames_omitted_at"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            signal = try container.decode(Signal.self, forKey: .signal)
            message = try container.decodeIfPresent(String.self, forKey: .message)
            thread = try container.decode(Thread.self, forKey: .thread)
            registers = try container.decode(Registers.self, forKey: .registers)
            frames = try container.decode([Frame].self, forKey: .frames)
            framesTruncated = try container.decode(Bool.self, forKey: .framesTruncated)
            unwindError = try container.decodeIfPresent(String.self, forKey: .unwindError)
            // Version 1 has neither member: nothing was left out.
            framesOmitted = try container.decodeIfPresent(Int.self, forKey: .framesOmitted) ?? 0
            framesOmittedAt = try container.decodeIfPresent(Int.self, forKey: .framesOmittedAt) ?? frames.count
        }

        // Written by hand so that `message` and `unwind_error` are written as `null`, not left
        // out: the schema requires both members.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try encodeMembers(into: &container, version: CrashReport.supportedSchemaVersion)
        }

        /// The members as schema `version` has them: version 1 has no `frames_omitted`.
        func encodeMembers(into container: inout KeyedEncodingContainer<CodingKeys>, version: Int) throws {
            try container.encode(signal, forKey: .signal)
            try container.encode(message, forKey: .message)
            try container.encode(thread, forKey: .thread)
            try container.encode(registers, forKey: .registers)
            try container.encode(frames, forKey: .frames)
            try container.encode(framesTruncated, forKey: .framesTruncated)
            try container.encode(unwindError, forKey: .unwindError)
            guard version >= 2 else { return }
            try container.encode(framesOmitted, forKey: .framesOmitted)
            try container.encode(framesOmittedAt, forKey: .framesOmittedAt)
        }
    }

    /// `crash.signal`: the signal and its `siginfo_t`.
    public struct Signal: Codable, Sendable, Equatable {
        /// e.g. `11`.
        public var number: Int
        /// e.g. `SIGSEGV`.
        public var name: String
        /// `si_code`.
        public var code: Int
        /// `si_code`'s name (`SEGV_MAPERR`, `SI_TKILL`, ...; `UNKNOWN` otherwise).
        public var codeName: String
        /// `si_addr`: the faulting address or instruction; `0x0` for signals sent by a process.
        public var address: Address

        /// A signal with each of its fields.
        public init(number: Int, name: String, code: Int, codeName: String, address: Address) {
            self.number = number
            self.name = name
            self.code = code
            self.codeName = codeName
            self.address = address
        }

        enum CodingKeys: String, CodingKey {
            case number, name, code
            case codeName = "code_name"
            case address
        }
    }

    /// `crash.thread`: the thread that crashed (``CapturedThread`` is an element of `threads`).
    public struct Thread: Codable, Sendable, Equatable {
        /// The kernel thread id.
        public var id: Int
        /// Its name (`PR_GET_NAME`, at most 15 bytes).
        public var name: String
        /// Whether it is the main thread.
        public var main: Bool

        /// A thread with each of its fields.
        public init(id: Int, name: String, main: Bool) {
            self.id = id
            self.name = name
            self.main = main
        }
    }
}
