import Testing

@testable import CrashReporterHTTP

@Suite struct HTTPURLTests {
    @Test func splitsSchemeHostPortAndPath() throws {
        let url = try HTTPURL("HTTPS://Sentry.Example.com:8443/api/42/envelope/?sentry_key=abc#frag")
        #expect(url.scheme == .https)
        #expect(url.host == "sentry.example.com")
        #expect(url.port == 8443)
        #expect(url.pathAndQuery == "/api/42/envelope/?sentry_key=abc")
        #expect(url.authority == "sentry.example.com:8443")
    }

    @Test func defaultsPortAndPath() throws {
        let plain = try HTTPURL("http://collector")
        #expect(plain.port == 80)
        #expect(plain.pathAndQuery == "/")
        #expect(plain.authority == "collector")
        let secure = try HTTPURL("https://collector?x=1")
        #expect(secure.port == 443)
        #expect(secure.pathAndQuery == "/?x=1")
    }

    @Test func readsBracketedIPv6() throws {
        let url = try HTTPURL("http://[::1]:8080/v1/events")
        #expect(url.host == "::1")
        #expect(url.port == 8080)
        #expect(url.isIPv6)
        #expect(url.authority == "[::1]:8080")
        #expect(url.description == "http://[::1]:8080/v1/events")
    }

    @Test func percentEncodesNonASCIIPath() throws {
        let url = try HTTPURL("http://host/caf\u{e9}")
        #expect(url.pathAndQuery == "/caf%C3%A9")
    }

    @Test(arguments: [
        ("ftp://host/file", "unsupported scheme 'ftp'"),
        ("host/path", "no scheme"),
        ("https://user:secret@host/", "user name or password"),
        ("http:///path", "no host"),
        ("http://host:0/", "bad port"),
        ("http://host:65536/", "bad port"),
        ("http://host:80x/", "bad port"),
        ("http://::1/", "brackets"),
        ("http://[::1/", "closing ']'"),
        ("http://[nothost]/", "not an IPv6 address"),
        ("http://h\u{f6}st/", "non-ASCII host"),
        ("http://host/a b", "space or control"),
    ])
    func refuses(_ text: String, _ reason: String) {
        #expect {
            try HTTPURL(text)
        } throws: { error in
            guard case .invalidURL(let message) = error as? HTTPError else { return false }
            return message.contains(reason)
        }
    }
}
