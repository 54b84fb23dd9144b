extension CrashReport {
    /// One element of `threads`: a thread of the process and its stack when the report was
    /// written (schema version 2; a version 1 report has one, built from `crash`).
    public struct CapturedThread: Codable, Sendable, Equatable {
        /// The kernel thread id.
        public var id: Int
        /// Its name (`PR_GET_NAME`, at most 15 bytes).
        public var name: String
        /// The thread that crashed (always `threads[0]` of a crash report, and only that one).
        public var crashed: Bool
        /// Whether it is the main thread.
        public var main: Bool
        /// Its registers; nil when the thread did not answer.
        public var registers: Registers?
        /// Its stack, innermost first. When frames were left out (``framesOmitted``), the
        /// innermost ones are `frames[..<framesOmittedAt]` and the outermost the rest.
        public var frames: [Frame]
        /// The stack had more frames than the report keeps.
        public var framesTruncated: Bool
        /// Frames left out between the innermost and the outermost ones kept (a deep recursion).
        public var framesOmitted: Int
        /// Where in ``frames`` the left-out frames were; `frames.count` when none were.
        public var framesOmittedAt: Int
        /// Why unwinding stopped early or did not happen: `fault`, `init_failed`, `step_failed`,
        /// or, for a thread that did not answer, `no_answer`, `signal_blocked`, `stopped`, `exited`.
        public var unwindError: String?

        public init(
            id: Int, name: String, crashed: Bool, main: Bool, registers: Registers?, frames: [Frame],
            framesTruncated: Bool = false, framesOmitted: Int = 0, framesOmittedAt: Int? = nil,
            unwindError: String? = nil
        ) {
            self.id = id
            self.name = name
            self.crashed = crashed
            self.main = main
            self.registers = registers
            self.frames = frames
            self.framesTruncated = framesTruncated
            self.framesOmitted = framesOmitted
            self.framesOmittedAt = framesOmittedAt ?? frames.count
            self.unwindError = unwindError
        }

        /// The crashing thread as `threads[0]` of a version 1 report: what `crash` says of it.
        public init(crashing crash: Crash) {
            self.init(
                id: crash.thread.id, name: crash.thread.name, crashed: true, main: crash.thread.main,
                registers: crash.registers, frames: crash.frames, framesTruncated: crash.framesTruncated,
                framesOmitted: crash.framesOmitted, framesOmittedAt: crash.framesOmittedAt,
                unwindError: crash.unwindError)
        }

        /// The `unwind_error` values that mean the thread did not answer the capture signal in
        /// time, so it has no frames and no registers.
        public static let noAnswerErrors: Set<String> = ["no_answer", "signal_blocked", "stopped", "exited"]

        /// False when the thread did not answer the capture signal (see ``noAnswerErrors``).
        public var answered: Bool { unwindError.map { !Self.noAnswerErrors.contains($0) } ?? true }

        enum CodingKeys: String, CodingKey {
            case id, name, crashed, main, registers, frames
            case framesTruncated = "frames_truncated"
            case framesOmitted = "frames_omitted"
            case framesOmittedAt = "frames_omitted_at"
            case unwindError = "unwind_error"
        }

        // Written by hand so that `registers` and `unwind_error` are written as `null`, not
        // left out: the schema requires both members.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(crashed, forKey: .crashed)
            try container.encode(main, forKey: .main)
            try container.encode(registers, forKey: .registers)
            try container.encode(frames, forKey: .frames)
            try container.encode(framesTruncated, forKey: .framesTruncated)
            try container.encode(framesOmitted, forKey: .framesOmitted)
            try container.encode(framesOmittedAt, forKey: .framesOmittedAt)
            try container.encode(unwindError, forKey: .unwindError)
        }
    }
}
