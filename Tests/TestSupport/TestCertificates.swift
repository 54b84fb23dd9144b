import Foundation

/// A certificate authority and a server certificate signed by it, made with the `openssl`
/// command once per test run in a temporary directory. The server certificate names only the
/// address 127.0.0.1 (no DNS name), so https://127.0.0.1 verifies and https://localhost does not.
public struct TestCertificates: Sendable {
    public let directory: String
    public var caFile: String { directory + "/ca.pem" }
    public var serverCertificate: String { directory + "/server.pem" }
    public var serverKey: String { directory + "/server.key" }

    /// Made on first use; nil with the reason when `openssl` failed.
    public static let shared: Result<TestCertificates, TestFailure> = Result { try make() }.mapError {
        TestFailure("cannot make test certificates: \($0)")
    }

    private static func make() throws -> TestCertificates {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("http-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let extensions = directory + "/server.ext"
        try "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n"
            .write(toFile: extensions, atomically: true, encoding: .utf8)
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try openssl(
            ["req", "-x509"] + curve + [
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=CrashReporterHTTP test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign",
            ], in: directory)
        try openssl(
            ["req"] + curve + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=test server"], in: directory
        )
        try openssl(
            [
                "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", "server.pem", "-days", "2", "-extfile", extensions,
            ], in: directory)
        return TestCertificates(directory: directory)
    }

    private static func openssl(_ arguments: [String], in directory: String) throws {
        _ = try ProgramRun.output("/usr/bin/env", ["openssl"] + arguments, in: directory)
    }
}
