import Testing

@testable import CrashReporterHTTP

@Suite struct ProxyConfigurationTests {
    private let secure = try! HTTPURL("https://sentry.example.com/api")
    private let plain = try! HTTPURL("http://collector.internal:8080/reports")

    @Test func picksTheVariableOfTheScheme() throws {
        let proxies = ProxyConfiguration(environment: [
            "https_proxy": "http://secure-proxy:3128", "http_proxy": "http://plain-proxy:8080",
        ])
        #expect(try proxies.proxy(for: secure)?.authority == "secure-proxy:3128")
        #expect(try proxies.proxy(for: plain)?.authority == "plain-proxy:8080")
    }

    @Test func lowercaseWinsAndUppercaseIsTheFallback() throws {
        let both = ProxyConfiguration(environment: ["https_proxy": "http://lower:1", "HTTPS_PROXY": "http://upper:2"])
        #expect(try both.proxy(for: secure)?.host == "lower")
        let upper = ProxyConfiguration(environment: ["HTTP_PROXY": "http://upper:2"])
        #expect(try upper.proxy(for: plain)?.host == "upper")
        #expect(try upper.proxy(for: secure) == nil)
    }

    @Test func aValueWithoutSchemeIsAnHTTPProxy() throws {
        let proxies = ProxyConfiguration(environment: ["https_proxy": "proxy.corp:3128"])
        let proxy = try proxies.proxy(for: secure)
        #expect(proxy?.scheme == .http)
        #expect(proxy?.port == 3128)
    }

    @Test func anEmptyValueMeansNoProxy() throws {
        let proxies = ProxyConfiguration(environment: ["https_proxy": "  "])
        #expect(try proxies.proxy(for: secure) == nil)
    }

    @Test(arguments: ["socks5://proxy:1080", "https://proxy:443", "http://user:pw@proxy:3128"])
    func refusesProxiesItCannotUse(_ value: String) {
        let proxies = ProxyConfiguration(environment: ["https_proxy": value])
        #expect {
            try proxies.proxy(for: secure)
        } throws: { error in
            guard case .invalidProxy(let message) = error as? HTTPError else { return false }
            return message.contains("https_proxy")
        }
    }

    @Test func noProxyMatchesHostsAndDomainSuffixes() {
        let proxies = ProxyConfiguration(environment: ["no_proxy": "localhost, .internal,Example.COM,[::1]"])
        #expect(proxies.bypasses("localhost"))
        #expect(proxies.bypasses("collector.internal"))
        #expect(proxies.bypasses("example.com"))
        #expect(proxies.bypasses("api.example.com"))
        #expect(proxies.bypasses("::1"))
        #expect(!proxies.bypasses("badexample.com"))
        #expect(!proxies.bypasses("internal.example.org"))
    }

    @Test func starBypassesEverything() throws {
        let proxies = ProxyConfiguration(environment: ["https_proxy": "http://proxy:1", "NO_PROXY": "*"])
        #expect(try proxies.proxy(for: secure) == nil)
    }

    @Test func noProxyLowercaseWins() {
        let proxies = ProxyConfiguration(environment: ["no_proxy": "a.test", "NO_PROXY": "b.test"])
        #expect(proxies.bypasses("a.test"))
        #expect(!proxies.bypasses("b.test"))
    }
}
