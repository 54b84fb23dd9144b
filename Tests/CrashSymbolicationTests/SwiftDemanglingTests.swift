import Foundation
import TestSupport
import Testing

@testable import CrashSymbolication

/// Function names as the symbolicator writes them, against the toolchain's own demangler in its
/// simplified form (`swift-demangle --simplified`, the form Swift's backtracer prints) and, for C++,
/// binutils' `c++filt`.
@Suite("Swift demangling")
struct SwiftDemanglingTests {
    /// Names of the kinds a report's frames have: a specialization, a closure, an async partial
    /// function, a reabstraction thunk, a private discriminator, a standard library function, a
    /// mangled name that does not parse, and names that are not mangled at all.
    static let swiftNames = [
        "$sSa9subscriptyxSicigSi_Tg5",
        "$s4main3fooyyFyycfU_",
        "$s4main5levelyySiYaFTY0_",
        "$sIeg_IeyB_TR",
        "$s4main6WorkerC3runyyYaKFTf4d_n",
        "$s10Foundation13NSThreadStart33_643EAFDBA6441671515D9121EE76E49ELLySvSgADF",
        "$ss5print_9separator10terminatoryypd_S2StF",
        "$sSD7ElementaSDyxq_Gs8HashableRzr0_lF",
        "main",
        "__libc_start_call_main",
    ]
    static let cxxNames = ["_ZNSt6vectorIiSaIiEE9push_backERKi", "_ZNKSt6vectorIiSaIiEE4sizeEv"]

    @Test("Swift names are the toolchain's simplified ones; other names are kept")
    func swiftNames() throws {
        let demangler = try #require(ProgramRun.path(of: "swift-demangle"), "swift-demangle is not on PATH")
        let expected = try Self.lines(of: demangler, ["--simplified"], Self.swiftNames)
        #expect(Self.swiftNames.map(SwiftDemangling.name(of:)) == expected)
        #expect(SwiftDemangling.name(of: "$sSa9subscriptyxSicigSi_Tg5") != "$sSa9subscriptyxSicigSi_Tg5")
        #expect(SwiftDemangling.name(of: "main") == "main")
        #expect(SwiftDemangling.name(of: "") == "")
    }

    @Test("C++ names are demangled as c++filt does")
    func cxxNames() throws {
        let filter = try #require(ProgramRun.path(of: "c++filt"), "c++filt is not on PATH")
        let expected = try Self.lines(of: filter, [], Self.cxxNames)
        #expect(Self.cxxNames.map(SwiftDemangling.name(of:)) == expected)
        #expect(!expected.contains { $0.hasPrefix("_Z") })
    }

    private static func lines(of tool: String, _ arguments: [String], _ names: [String]) throws -> [String] {
        let output = try ProgramRun.output(tool, arguments, input: Data((names.joined(separator: "\n") + "\n").utf8))
        return String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().map(String.init)
    }
}
