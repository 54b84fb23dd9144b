import CrashReportFormat
import Foundation

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

    public var scheme: String
    public var publicKey: String
    public var host: String
    public var port: Int?
    /// Any path before the project id, without slashes at either end (often empty).
    public var pathPrefix: String
    public var projectID: String

    public init(_ string: String) throws(ParseError) {
        let trimmed = string.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased() else {
            throw .notAURL
        }
        guard scheme == "https" || scheme == "http" else { throw .unsupportedScheme(scheme) }
        guard let host = components.host, !host.isEmpty else { throw .missingHost }
        guard let key = components.user, !key.isEmpty else { throw .missingPublicKey }
        var segments = components.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let project = segments.popLast() else { throw .missingProjectID }
        guard project.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw .invalidProjectID(project) }
        self.scheme = scheme
        self.publicKey = key
        self.host = host
        self.port = components.port
        self.pathPrefix = segments.joined(separator: "/")
        self.projectID = project
    }

    /// `scheme://host[:port]/[path/]api/PROJECT_ID/envelope/`.
    public var envelopeURL: URL {
        var components = URLComponents()
        components.scheme = scheme
        components.host = host
        components.port = port
        components.path = "/" + (pathPrefix.isEmpty ? "" : pathPrefix + "/") + "api/\(projectID)/envelope/"
        return components.url!
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
