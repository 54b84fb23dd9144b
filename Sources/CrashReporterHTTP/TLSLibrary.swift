import CCrashReporterTLS

/// OpenSSL's libssl, loaded by CCrashReporterTLS with dlopen the first time an https request
/// needs it (never at start, and never at all in a service that does not use https). The result
/// of that first attempt, success or the reason for failure, holds for the life of the process.
enum TLSLibrary {
    /// Loads the library if needed; throws `.tlsLibraryMissing` with the package to install.
    static func load() throws(HTTPError) {
        var error = [CChar](repeating: 0, count: 512)
        guard scr_tls_load(&error, error.count) == 0 else { throw .tlsLibraryMissing(text(error)) }
    }

    /// The NUL-terminated text in a buffer the C side filled.
    static func text(_ buffer: [CChar]) -> String {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
