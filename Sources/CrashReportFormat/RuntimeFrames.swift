/// The frames a crash signature leaves out even when they are in the main executable (a
/// `--static-swift-stdlib` build links the runtime into it): every crash passes through them,
/// so they say nothing about which crash it is.
package enum RuntimeFrames {
    /// The name the compiler gives a `-O` trap's pseudo-function.
    package static let failurePrefix = "Swift runtime failure: "

    /// Prefixes of the runtime's, the standard library's and libc's function names.
    static let prefixes = [
        "Swift.", "Swift runtime failure", "swift_", "_swift_", "swift::", "__swift", "$s", "_$s", "__libc_",
        "__GI_", "_start", "Foundation.", "Dispatch.", "Glibc.",
    ]

    /// Functions that report a failure rather than cause it, by their unqualified name.
    static let reporters = [
        "_assertionFailure", "_fatalErrorMessage", "_preconditionFailure", "fatalError", "preconditionFailure",
        "assertionFailure", "precondition", "abort", "raise", "pthread_kill", "gsignal",
    ]

    /// `function` belongs to the runtime, the standard library or libc, or only reports the failure.
    package static func isRuntime(_ function: String) -> Bool {
        if prefixes.contains(where: { function.hasPrefix($0) }) { return true }
        let base = function.prefix { $0 != "(" && $0 != "<" && $0 != " " }
        return reporters.contains { base == $0 }
    }

    /// The reason of the `Swift runtime failure: …` pseudo-frame among a frame's symbols.
    static func failureReason(in symbols: [FrameSymbol]) -> String? {
        guard let failure = symbols.first(where: { $0.function.hasPrefix(failurePrefix) }) else { return nil }
        let reason = failure.function.dropFirst(failurePrefix.count)
        return reason.isEmpty ? nil : String(reason)
    }
}
