import CrashReporterSupport

/// Where certificates are trusted from: OpenSSL's default CA file and directory, or the ones
/// `SSL_CERT_FILE` and `SSL_CERT_DIR` name, read from the environment the client was given (the
/// process's by default), exactly as OpenSSL's default verify paths would read them.
struct TrustStore: Sendable, Hashable {
    /// Replaces OpenSSL's default CA bundle when set.
    var caFile: String?
    /// Replaces OpenSSL's default hashed certificate directory when set.
    var caDirectory: String?

    init(environment: [String: String]) {
        let settings = EnvironmentSettings(environment)
        caFile = settings.nonEmpty(.sslCertFile)
        caDirectory = settings.nonEmpty(.sslCertDirectory)
    }
}
