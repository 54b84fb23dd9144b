#if os(Linux)
    import Glibc
#endif

/// Names as the Swift runtime's own backtracer prints them: its demangler in the simplified form
/// (`specialized Array.subscript.getter`), for the names the ELF and DWARF readers find; a C++
/// name is demangled too, anything else is kept as it is.
///
/// The demangler is the standard library's entry point for the backtracer, called directly: the
/// toolchain's `Runtime` module reaches it the same way, but linking that module adds
/// libswiftRuntime.so (about 0.45 MiB of resident pages) to every service at launch, for this
/// one call (docs/decisions/0175-demangle-through-the-standard-library.md).
enum SwiftDemangling {
    static func name(of rawName: String) -> String {
        #if os(Linux)
            var name = rawName
            return name.withUTF8 { bytes in
                guard let base = bytes.baseAddress,
                    let demangled = backtraceDemangle(base, bytes.count, nil, nil)
                else { return rawName }
                defer { free(demangled) }
                return String(cString: demangled)
            }
        #else
            return rawName
        #endif
    }
}

#if os(Linux)
    /// The standard library's demangler for backtraces (a Swift-convention function in
    /// libswiftCore): `name` of `length` bytes, need not end in a 0; with no output buffer the result
    /// is allocated with malloc (the caller frees it); nil when the name is not a mangled one.
    @_silgen_name("_swift_backtrace_demangle")
    private func backtraceDemangle(
        _ name: UnsafePointer<UInt8>, _ length: Int, _ outputBuffer: UnsafeMutablePointer<CChar>?,
        _ outputBufferSize: UnsafeMutablePointer<Int>?
    ) -> UnsafeMutablePointer<CChar>?
#endif
