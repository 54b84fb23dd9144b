import CrashReportSentry

/// The Sentry DSN parser.
///
/// Properties: nothing crashes; a DSN that parses has a host, a key and a numeric project id,
/// and written back out (key included) it parses to the same DSN; the auth header names its key.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSentryDSN(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let dsn: SentryDSN
    do {
        dsn = try SentryDSN(text)
    } catch {
        _ = error.description
        return 0
    }
    precondition(!dsn.host.isEmpty && !dsn.publicKey.isEmpty, "a DSN without a host or key was accepted")
    precondition(
        !dsn.projectID.isEmpty && dsn.projectID.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 },
        "a DSN with a non-numeric project id was accepted")
    precondition(dsn.scheme == "http" || dsn.scheme == "https", "a DSN with scheme \(dsn.scheme) was accepted")
    do {
        let port = dsn.port.map { ":\($0)" } ?? ""
        let prefix = dsn.pathPrefix.isEmpty ? "" : dsn.pathPrefix + "/"
        let again = try SentryDSN("\(dsn.scheme)://\(dsn.publicKey)@\(dsn.host)\(port)/\(prefix)\(dsn.projectID)")
        precondition(again == dsn, "a DSN written back parses to a different DSN")
    } catch {
        fatalError("a DSN written back does not parse: \(error)")
    }
    precondition(
        dsn.authHeader(sdkName: "fuzz", sdkVersion: "1").contains(dsn.publicKey), "the auth header lost the key")
    return 0
}
