import CCrashReporter
import Glibc
import Testing

/// The rule the crash path uses to tell whether the default action of its signal leaves a core
/// dump (core_dump.c): the kernel's own, case by case. Whether the rule's answer is acted on is
/// the integration tests' business (ThreadsAfterCaptureTests).
@Suite("Whether a core dump follows a crash (C core)")
struct CoreDumpRuleTests {
    let file = Int32(SCR_CORE_PATTERN_FILE)
    let pipe = Int32(SCR_CORE_PATTERN_PIPE)
    let unknown = Int32(SCR_CORE_PATTERN_UNKNOWN)
    let page = UInt64(getpagesize())
    let unlimited = UInt64.max

    @Test("a file pattern needs a core limit of at least a page")
    func filePattern() {
        #expect(scr_debug_core_dump_follows(file, 0, 1) == 0)
        #expect(scr_debug_core_dump_follows(file, page - 1, 1) == 0)
        #expect(scr_debug_core_dump_follows(file, page, 1) == 1)
        #expect(scr_debug_core_dump_follows(file, unlimited, 1) == 1)
    }

    @Test("a pipe pattern dumps at any limit but 1, which the kernel keeps to stop a dump")
    func pipePattern() {
        #expect(scr_debug_core_dump_follows(pipe, 0, 1) == 1)
        #expect(scr_debug_core_dump_follows(pipe, 1, 1) == 0)
        #expect(scr_debug_core_dump_follows(pipe, unlimited, 1) == 1)
    }

    @Test("a process that is not dumpable leaves none, whatever the pattern and the limit")
    func notDumpable() {
        for pattern in [file, pipe, unknown] {
            #expect(scr_debug_core_dump_follows(pattern, unlimited, 0) == 0)
        }
        #expect(scr_debug_core_dump_follows(file, unlimited, 2) == 1, "2: dumpable, readable by root only")
    }

    @Test("a pattern that could not be read counts as one that dumps")
    func unknownPattern() {
        #expect(scr_debug_core_dump_follows(unknown, 0, 1) == 1)
        #expect(scr_debug_core_dump_follows(unknown, 1, 1) == 1)
    }
}
