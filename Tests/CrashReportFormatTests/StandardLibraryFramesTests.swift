import CrashReportFormat
import Testing

/// The standard library's code that `-O` copies into the app is not the app's function
/// (docs/grouping.md): known by its linkage name, left out of the signature and the title.
@Suite("The standard library's code in the app")
struct StandardLibraryFramesTests {
    @Test(arguments: [
        ("$sSayxSicigSi_Tg5", true),  // specialized Array.subscript.getter
        ("$sSa15_checkSubscript_20wasNativeTypeCheckeds16_DependenceTokenVSi_SbtFSi_Tg5", true),
        ("$ss17_assertionFailure__4file4line5flagss5NeverOs12StaticStringV_SSAHSus6UInt32VtF", true),
        ("_$sSD8_VariantV8setValue_6forKeyyq_n_xtF", true),  // Dictionary, with the leading underscore
        ("$sScTss5NeverORs_rlE5sleep11nanosecondsys6UInt64V_tYaKFZ", true),  // Task, Concurrency
        ("$s9CrashTest22crashByIndexOutOfRanges5NeverOyF", false),
        ("$sSa9CrashTestE6middlexvg", false),  // an extension of Array in the app
        ("$sSo8NSObjectC4testyyF", false),  // a type imported from C
        ("CrashTest_main", false),
        ("crash_test_divide", false),
    ])
    func byLinkageName(name: String, standardLibrary: Bool) {
        let symbol = FrameSymbol(function: "f()", mangledName: name)
        #expect(RuntimeFrames.isRuntime(symbol) == standardLibrary, "\(name)")
    }

    @Test func theTitleNamesTheAppsFunctionAndTheReason() throws {
        let trap = [
            FrameSymbol(function: "Swift runtime failure: Index out of range", inlined: true),
            FrameSymbol(
                function: "specialized Array._checkSubscript(_:wasNativeTypeChecked:)", inlined: true,
                mangledName: "$sSa15_checkSubscript_20wasNativeTypeCheckeds16_DependenceTokenVSi_SbtFSi_Tg5"),
            FrameSymbol(
                function: "specialized Array.subscript.getter", inlined: true, mangledName: "$sSayxSicigSi_Tg5"),
            FrameSymbol(
                function: "crashByIndexOutOfRange()", offset: 175,
                mangledName: "$s9CrashTest22crashByIndexOutOfRanges5NeverOyF"),
        ]
        let report = try CrashSignatureTests.report(offsets: [0x10, 0x20])
        let signature = CrashSignature(
            report: report,
            symbols: ReportSymbols(crash: [0: trap, 1: [FrameSymbol(function: "CrashTest_main")]]))
        #expect(signature.title == "crashByIndexOutOfRange() — Index out of range")
        #expect(signature.description == "SIGILL | crashByIndexOutOfRange() | CrashTest_main | Index out of range")
    }
}
