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
        /// The Swift async functions awaiting the one that runs, innermost first (`trust` is
        /// `async`): the resume points of the async context chain found beside the frame at
        /// ``asyncFramesAt``. Empty when the thread ran no async code.
        public var asyncFrames: [Frame]
        /// The index in ``frames`` of the async frame whose context began the chain: the async
        /// frames come right after `frames[asyncFramesAt]` in call order (see ``callStack``).
        public var asyncFramesAt: Int
        /// Contexts beyond the ones kept in ``asyncFrames`` (the walk's bound).
        public var asyncFramesOmitted: Int
        /// The Swift task the thread was running, when it ran one and the handler could read it.
        public var task: RunningTask?
        /// While decoding: the earlier thread whose frames are this one's, moved
        /// (`frames_as`, version 4); nil once the report has put them in ``frames``.
        var framesAs: FramesAs?

        /// A captured thread with each of its fields; what the report's JSON leaves out has its default.
        public init(
            id: Int, name: String, crashed: Bool, main: Bool, registers: Registers?, frames: [Frame],
            framesTruncated: Bool = false, framesOmitted: Int = 0, framesOmittedAt: Int? = nil,
            unwindError: String? = nil, asyncFrames: [Frame] = [], asyncFramesAt: Int = 0, asyncFramesOmitted: Int = 0,
            task: RunningTask? = nil
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
            self.asyncFrames = asyncFrames
            self.asyncFramesAt = asyncFramesAt
            self.asyncFramesOmitted = asyncFramesOmitted
            self.task = task
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
            case asyncFrames = "async_frames"
            case asyncFramesAt = "async_frames_at"
            case asyncFramesOmitted = "async_frames_omitted"
            case task
            case framesAs = "frames_as"
            case framesSPShift = "frames_sp_shift"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int.self, forKey: .id)
            name = try container.decode(String.self, forKey: .name)
            crashed = try container.decode(Bool.self, forKey: .crashed)
            main = try container.decode(Bool.self, forKey: .main)
            registers = try container.decodeIfPresent(Registers.self, forKey: .registers)
            // Version 4: a thread whose stack is an earlier one's, moved, names that thread
            // instead of listing frames; the report fills them in (CapturedThread+FramesAs.swift).
            if container.contains(.frames) && container.contains(.framesAs) {
                throw DecodingError.dataCorruptedError(
                    forKey: .framesAs, in: container, debugDescription: "a thread has frames or frames_as, not both")
            }
            if container.contains(.frames) || !container.contains(.framesAs) {
                frames = try container.decode([Frame].self, forKey: .frames)
            } else {
                frames = []
                framesAs = FramesAs(
                    thread: try container.decode(Int.self, forKey: .framesAs),
                    spShift: try container.decode(Address.self, forKey: .framesSPShift))
            }
            framesTruncated = try container.decode(Bool.self, forKey: .framesTruncated)
            framesOmitted = try container.decode(Int.self, forKey: .framesOmitted)
            framesOmittedAt = try container.decode(Int.self, forKey: .framesOmittedAt)
            unwindError = try container.decodeIfPresent(String.self, forKey: .unwindError)
            // The async members are optional: a thread that ran no async code, and every report
            // written before they existed, has none.
            asyncFrames = try container.decodeIfPresent([Frame].self, forKey: .asyncFrames) ?? []
            asyncFramesAt = try container.decodeIfPresent(Int.self, forKey: .asyncFramesAt) ?? 0
            asyncFramesOmitted = try container.decodeIfPresent(Int.self, forKey: .asyncFramesOmitted) ?? 0
            task = try container.decodeIfPresent(RunningTask.self, forKey: .task)
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
            // Written only when there are some, so that a report without async code reads back
            // as the handler wrote it.
            if !asyncFrames.isEmpty || asyncFramesOmitted > 0 {
                try container.encode(asyncFrames, forKey: .asyncFrames)
                try container.encode(asyncFramesAt, forKey: .asyncFramesAt)
                try container.encode(asyncFramesOmitted, forKey: .asyncFramesOmitted)
            }
            try container.encodeIfPresent(task, forKey: .task)
        }

        /// The thread's stack in call order, innermost first: the synchronous frames up to and
        /// including `frames[asyncFramesAt]`, then the async frames (the functions awaiting it),
        /// then the rest of the synchronous frames (the executor that ran the job).
        public var callStack: [Frame] {
            guard !asyncFrames.isEmpty, asyncFramesAt < frames.count else { return frames + asyncFrames }
            return Array(frames[...asyncFramesAt]) + asyncFrames + frames[(asyncFramesAt + 1)...]
        }
    }
}
