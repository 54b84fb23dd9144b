extension RuntimeFrames {
    /// `symbol` belongs to the runtime, the standard library or libc, or only reports the
    /// failure: by its demangled name (``isRuntime(_:)-(String)``), and by its linkage name, which
    /// tells the standard library's code that the optimizer copied into the app (a specialized
    /// `Array.subscript.getter`, `Array._checkSubscript`) from the app's own.
    package static func isRuntime(_ symbol: FrameSymbol) -> Bool {
        if isRuntime(symbol.function) { return true }
        return symbol.mangledName.map(isStandardLibrary(mangledName:)) ?? false
    }

    /// A Swift linkage name whose outermost context is the `Swift` module (`$ss…`) or one of the
    /// standard library's (and Concurrency's) types that the mangling abbreviates to `S` and a
    /// letter (`$sSa…` Array, `$sSD…` Dictionary, `$sSS…` String, `$sSc…` Concurrency), unless it
    /// is an extension that another module declares (`$sSa9MyModuleE…`). `So` and `SC` (types
    /// imported from C) are not the standard library's.
    static func isStandardLibrary(mangledName name: String) -> Bool {
        var rest = Substring(name)
        if rest.hasPrefix("_") { rest = rest.dropFirst() }
        guard rest.hasPrefix("$s") else { return false }
        rest = rest.dropFirst(2)
        guard let first = rest.first else { return false }
        if first == "s" { return true }
        guard first == "S", let second = rest.dropFirst().first, second.isASCII, second.isLetter,
            second != "o", second != "C"
        else { return false }
        rest = rest.dropFirst(2)
        if second == "c", let third = rest.first, third.isASCII, third.isLetter { rest = rest.dropFirst() }
        // `<length><module>E`: declared in an extension by another module.
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let length = Int(digits) else { return true }
        let afterName = rest.dropFirst(digits.count).dropFirst(length)
        return afterName.first != "E"
    }
}
