import CrashReportFormat
import CrashReporterSupport

/// A Sentry DSN, `https://PUBLIC_KEY@host[:port]/[path/]PROJECT_ID`: where to send envelopes
/// and the key that goes in their `X-Sentry-Auth` header.
public struct SentryDSN: Sendable, Equatable, CustomStringConvertible {
    public enum ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        case notAURL
        case unsupportedScheme(String)
        case missingHost
        case missingPublicKey
        case missingProjectID
        case invalidProjectID(String)

        public var description: String {
            switch self {
            case .notAURL: "the DSN is not a URL"
            case .unsupportedScheme(let scheme): "the DSN's scheme must be http or https, not \(Text.safe(scheme))"
            case .missingHost: "the DSN has no host"
            case .missingPublicKey: "the DSN has no public key (https://KEY@host/PROJECT)"
            case .missingProjectID: "the DSN has no project id (https://KEY@host/PROJECT)"
            case .invalidProjectID(let id): "the DSN's project id must be a number, not \(Text.safe(id))"
            }
        }
    }

    /// `http` or `https`, in lower case.
    public var scheme: String
    public var publicKey: String
    /// As written in the DSN; an IPv6 address keeps its brackets (`[::1]`).
    public var host: String
    public var port: Int?
    /// Any path before the project id, without slashes at either end (often empty).
    public var pathPrefix: String
    public var projectID: String

    /// Parses a DSN (leading and trailing whitespace ignored). The text must be a URL made of the
    /// characters RFC 3986 allows; a password after the key (`KEY:SECRET@`, an old form) is
    /// accepted and ignored, and so are a query and a fragment.
    public init(_ string: String) throws(ParseError) {
        let text = string.trimmingASCIIWhitespace()
        guard !text.isEmpty, text.allSatisfy(Self.isURLCharacter),
            let colon = text.firstIndex(of: ":"), Self.isScheme(text[..<colon])
        else { throw .notAURL }
        let scheme = text[..<colon].lowercased()
        guard scheme == "https" || scheme == "http" else { throw .unsupportedScheme(scheme) }
        // `//authority` is what makes a URL have a host at all (`https:1` has none).
        let afterScheme = text[text.index(after: colon)...]
        guard afterScheme.hasPrefix("//") else { throw .missingHost }
        let rest = afterScheme.dropFirst(2)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let path = rest[authorityEnd...].prefix { $0 != "?" && $0 != "#" }

        let atSigns = authority.filter { $0 == "@" }.count
        guard atSigns <= 1 else { throw .notAURL }
        let userInfo = atSigns == 1 ? authority.prefix { $0 != "@" } : nil
        let hostAndPort = atSigns == 1 ? authority.drop { $0 != "@" }.dropFirst() : authority
        let (host, port) = try Self.splitHostAndPort(hostAndPort)
        guard !host.isEmpty else { throw .missingHost }
        guard let key = userInfo?.prefix(while: { $0 != ":" }), !key.isEmpty else { throw .missingPublicKey }

        var segments = path.split(separator: "/").map(String.init)
        guard let project = segments.popLast() else { throw .missingProjectID }
        guard project.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw .invalidProjectID(project) }
        self.scheme = scheme
        self.publicKey = String(key)
        self.host = String(host)
        self.port = port
        self.pathPrefix = segments.joined(separator: "/")
        self.projectID = project
    }

    /// `host` and the optional `:port` after it (`[v6]:port` for IPv6).
    private static func splitHostAndPort(_ text: Substring) throws(ParseError) -> (Substring, Int?) {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw .notAURL }
            host = text[...close]
            portText = text[text.index(after: close)...]
        } else {
            host = text.prefix { $0 != ":" }
            portText = text[host.endIndex...]
        }
        guard !portText.isEmpty else { return (host, nil) }
        guard portText.first == ":" else { throw .notAURL }
        let digits = portText.dropFirst()
        if digits.isEmpty { return (host, nil) }  // `host:` has the default port
        guard digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(digits),
            port <= 65535
        else { throw .notAURL }
        return (host, port)
    }

    /// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    /// The unreserved and reserved characters of RFC 3986, and `%` for escapes.
    private static func isURLCharacter(_ character: Character) -> Bool {
        character.isASCII
            && (character.isLetter || character.isNumber || "-._~:/?#[]@!$&'()*+,;=%".contains(character))
    }

    /// `scheme://host[:port]/[path/]api/PROJECT_ID/envelope/`.
    public var envelopeURL: String {
        "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")/\(pathPrefix.isEmpty ? "" : pathPrefix + "/")"
            + "api/\(projectID)/envelope/"
    }

    /// The `X-Sentry-Auth` header's value: `Sentry sentry_version=7, sentry_key=KEY, sentry_client=NAME/VERSION`.
    public func authHeader(sdkName: String, sdkVersion: String) -> String {
        "Sentry sentry_version=7, sentry_key=\(publicKey), sentry_client=\(sdkName)/\(sdkVersion)"
    }

    /// The DSN without its key, for logs.
    public var description: String {
        "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")/\(pathPrefix.isEmpty ? "" : pathPrefix + "/")\(projectID)"
    }
}
