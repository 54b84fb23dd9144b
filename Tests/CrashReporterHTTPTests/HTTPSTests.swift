import CrashReporterHTTP
import Foundation
import TestSupport
import Testing

/// https against a Python `ssl` server whose certificate a test CA signed (TestCertificates):
/// trusted through SSL_CERT_FILE it works; without that trust, or for a name the certificate
/// does not carry, the handshake fails with OpenSSL's verification error.
@Suite struct HTTPSTests {
    private let certificates: TestCertificates
    private let server: PythonServer

    init() throws {
        certificates = try TestCertificates.shared.get()
        server = try PythonServer(
            script: "https_server.py", arguments: [certificates.serverCertificate, certificates.serverKey])
    }

    private func send(host: String = "127.0.0.1", environment: [String: String]) throws(HTTPError) -> HTTPResponse {
        let client = HTTPClient(userAgent: "https-tests/1", environment: environment)
        return try client.send(
            HTTPRequest(
                url: HTTPURL("https://\(host):\(server.port)/upload"), method: "POST", body: Array("crash".utf8),
                timeout: .seconds(10)))
    }

    @Test func trustedThroughSSLCertFile() throws {
        let response = try send(environment: ["SSL_CERT_FILE": certificates.caFile])
        #expect(response.status == 200)
        #expect(response.headers["x-served-by"] == "tls-test")
        #expect(String(decoding: response.body, as: UTF8.self) == "POST /upload 5")
    }

    @Test func untrustedCertificateFailsVerification() {
        #expect {
            try send(environment: [:])
        } throws: { error in
            guard case .tlsFailure(let reason) = error as? HTTPError else { return false }
            return reason.contains("certificate verify failed: unable to get local issuer certificate")
        }
    }

    @Test func wrongHostNameFailsVerification() {
        #expect {
            try send(host: "localhost", environment: ["SSL_CERT_FILE": certificates.caFile])
        } throws: { error in
            guard case .tlsFailure(let reason) = error as? HTTPError else { return false }
            return reason.contains("certificate verify failed: hostname mismatch")
        }
    }

    @Test func unreadableCAFileIsReported() {
        #expect {
            try send(environment: ["SSL_CERT_FILE": certificates.directory + "/missing.pem"])
        } throws: { error in
            guard case .tlsFailure(let reason) = error as? HTTPError else { return false }
            return reason.contains("missing.pem")
        }
    }

    @Test func tlsToAServerSpeakingSomethingElseFails() throws {
        let plain = try LoopbackServer(greeting: Array("SSH-2.0-OpenSSH_9.2\r\n".utf8)) { _ in .close }
        let client = HTTPClient(userAgent: "https-tests/1", environment: [:])
        #expect {
            try client.send(HTTPRequest(url: HTTPURL("https://127.0.0.1:\(plain.port)/"), timeout: .seconds(10)))
        } throws: { error in
            guard case .tlsFailure(let reason) = error as? HTTPError else { return false }
            return reason.hasPrefix("TLS handshake failed")
        }
    }

    /// libssl comes in with the first https request, by dlopen: it is mapped afterwards, and the
    /// test binary itself does not list it as a needed library.
    @Test func libsslIsLoadedOnDemandNotLinked() throws {
        _ = try send(environment: ["SSL_CERT_FILE": certificates.caFile])
        // FileHandle reads to the end; /proc files report a size of 0.
        let maps = String(
            decoding: try #require(FileHandle(forReadingAtPath: "/proc/self/maps")).readDataToEndOfFile(), as: UTF8.self
        )
        #expect(maps.contains("libssl.so"))
        let dynamic = String(
            decoding: try ProgramRun.output("/usr/bin/env", ["readelf", "-d", "/proc/\(getpid())/exe"]), as: UTF8.self)
        let needed = dynamic.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(!needed.isEmpty)
        #expect(!needed.contains { $0.contains("libssl") || $0.contains("libcrypto") })
    }
}
