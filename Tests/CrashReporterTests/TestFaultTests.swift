import CCrashReporter
import Testing

@testable import CrashReporter

/// CRASH_REPORTER_TEST_FAULT's names against the C core's table of fault sites (CCrashReporter.h);
/// the integration tests crash with each of them armed.
struct TestFaultTests {
    @Test("each name of a fault site is the C core's site of that name; other values are none")
    func sitesComeFromTheHeader() {
        #expect(TestFault.site(named: "unwind") == Int32(SCR_FAULT_IN_UNWIND))
        #expect(TestFault.site(named: "report") == Int32(SCR_FAULT_IN_REPORT))
        #expect(TestFault.site(named: "thread") == Int32(SCR_FAULT_IN_THREAD))
        #expect(TestFault.site(named: "record") == Int32(SCR_FAULT_IN_RECORD))
        #expect(TestFault.site(named: "slow-claim") == Int32(SCR_FAULT_SLOW_CLAIM))
        #expect(TestFault.site(named: "gone") == Int32(SCR_FAULT_THREAD_GONE))
        #expect(TestFault.site(named: "slow-end") == Int32(SCR_FAULT_SLOW_END))
        let names = ["unwind", "report", "thread", "record", "slow-claim", "gone", "slow-end"]
        let sites = names.compactMap(TestFault.site(named:))
        #expect(Set(sites).count == 7 && !sites.contains(Int32(SCR_FAULT_OFF)))
        for other in ["", "Unwind", "eio-after:10", "enospc-after:1", "none"] {
            #expect(TestFault.site(named: other) == nil)
        }
    }
}
