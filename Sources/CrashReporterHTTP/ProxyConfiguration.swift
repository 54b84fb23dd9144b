import CrashReporterSupport

/// The proxy settings of the environment, read the way curl (and so URLSession on Linux) reads
/// them: `https_proxy` / `HTTPS_PROXY` for https URLs, `http_proxy` / `HTTP_PROXY` for http URLs
/// (the lowercase name first), and `no_proxy` / `NO_PROXY`, a comma-separated list of host names
/// or suffixes (`example.com` also matches `api.example.com`; a leading dot is ignored) or `*` for
/// every host. Only http:// proxies are supported (a value without a scheme is taken as one);
/// https URLs go through them in a `CONNECT` tunnel, http URLs as absolute-form requests.
struct ProxyConfiguration: Sendable, Hashable {
    /// A proxy variable's name and value, kept as text until a request needs it so that a bad
    /// value is reported by that request (and never by a service that sends nothing).
    struct Setting: Sendable, Hashable {
        var variable: String
        var value: String
    }

    var http: Setting?
    var https: Setting?
    /// Lowercased, brackets and a leading dot removed; `*` stands for every host.
    var noProxy: [String]

    init(environment: [String: String]) {
        let settings = EnvironmentSettings(environment)
        func setting(_ lowercase: EnvironmentVariable, _ uppercase: EnvironmentVariable) -> Setting? {
            settings.first(lowercase, uppercase).map { Setting(variable: $0.variable.name, value: $0.text) }
        }
        http = setting(.httpProxy, .httpProxyUppercase)
        https = setting(.httpsProxy, .httpsProxyUppercase)
        let list = settings.raw(.noProxy) ?? settings.raw(.noProxyUppercase) ?? ""
        noProxy = list.split(separator: ",").map { entry in
            var name = entry.trimmingASCIIWhitespace().lowercased()
            if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
            if name.hasPrefix(".") { name = String(name.dropFirst()) }
            return name
        }.filter { !$0.isEmpty }
    }

    /// The proxy to use for `url`, or nil to connect directly.
    func proxy(for url: HTTPURL) throws(HTTPError) -> HTTPURL? {
        guard let setting = url.scheme == .https ? https : http, !bypasses(url.host) else { return nil }
        var text = setting.value
        if let separator = text.utf8.indices.first(where: { text.utf8[$0...].starts(with: "://".utf8) }) {
            let scheme = text[..<separator].lowercased()
            guard scheme == "http" else {
                throw .invalidProxy("\(setting.variable) is a \(scheme):// proxy; only http:// proxies are supported")
            }
        } else {
            text = "http://" + text
        }
        do {
            return try HTTPURL(text)
        } catch {
            throw .invalidProxy("\(setting.variable): \(error)")
        }
    }

    /// Whether `no_proxy` names `host` or a domain it is in.
    func bypasses(_ host: String) -> Bool {
        let host = host.lowercased()
        return noProxy.contains { entry in
            entry == "*" || host == entry || host.hasSuffix("." + entry)
        }
    }
}
