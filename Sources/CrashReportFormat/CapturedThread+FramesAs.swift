// Version 4's shared stacks: a thread whose frames are an earlier thread's, each stack pointer
// moved by one amount (a pool's idle threads wait in the same calls on stacks of their own),
// says `frames_as` (that thread's index in `threads`) and `frames_sp_shift` instead of
// `frames` (docs/report-schema.md, "A thread"). Decoding gives it the frames themselves.
import CrashReporterSupport

extension CrashReport.CapturedThread {
    /// A thread's `frames_as` and `frames_sp_shift`, as read.
    struct FramesAs: Sendable, Equatable {
        /// The index in `threads` of the thread whose frames these are.
        var thread: Int
        /// Added to each of that thread's stack pointers, modulo 2^64.
        var spShift: Address
    }

    /// `threads` with every `frames_as` replaced by the frames it names. A named thread comes
    /// earlier and lists its frames itself; `frames_as` needs version 4.
    static func fillingSharedFrames(
        _ threads: [Self], version: Int, codingPath: [any CodingKey]
    ) throws -> [Self] {
        var filled = threads
        for index in filled.indices {
            guard let shared = filled[index].framesAs else { continue }
            func fail(_ message: String) -> DecodingError {
                let path = codingPath + [JSONCodingKey(index: index), CodingKeys.framesAs]
                return .dataCorrupted(.init(codingPath: path, debugDescription: message))
            }
            if version < 4 { throw fail("frames_as needs schema version 4 or later") }
            guard (0..<index).contains(shared.thread), threads[shared.thread].framesAs == nil else {
                throw fail("frames_as names \(shared.thread), not an earlier thread that lists its frames")
            }
            filled[index].frames = threads[shared.thread].frames.map { frame in
                var moved = frame
                moved.sp = Address(frame.sp.rawValue &+ shared.spShift.rawValue)
                return moved
            }
            filled[index].framesAs = nil
        }
        return filled
    }
}
