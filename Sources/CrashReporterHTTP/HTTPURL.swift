/// An http or https URL, parsed into what a request needs: the scheme, the host (an IPv6 address
/// without its brackets), the port and the path with its query. The fragment is dropped (it never
/// goes on the wire). User names and passwords in the URL are refused: the client has no use for
/// them and they would end up in logs.
public struct HTTPURL: Sendable, Hashable, CustomStringConvertible {
    /// The two schemes the client speaks.
    public enum Scheme: String, Sendable, Hashable {
        case http
        case https

        /// 80 or 443.
        public var defaultPort: Int { self == .http ? 80 : 443 }
    }

    public let scheme: Scheme
    /// Lowercased; an IPv6 address without brackets.
    public let host: String
    public let port: Int
    /// Starts with `/`; percent-encoded where the text was not ASCII.
    public let pathAndQuery: String

    /// Parses `string`, throwing `HTTPError.invalidURL` with the reason it cannot be used.
    public init(_ string: String) throws(HTTPError) {
        let text = Array(string.utf8).trimmingHTTPWhitespace()
        guard let schemeEnd = text.indices.first(where: { text[$0...].starts(with: Self.schemeSeparator) }) else {
            throw .invalidURL("'\(string)' has no scheme (http:// or https://)")
        }
        let schemeName = String(decoding: text[..<schemeEnd], as: UTF8.self).lowercased()
        guard let scheme = Scheme(rawValue: schemeName) else {
            throw .invalidURL("unsupported scheme '\(schemeName)' (only http and https)")
        }
        let rest = text[(schemeEnd + Self.schemeSeparator.count)...]
        let authorityEnd = rest.firstIndex {
            $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
        }
        let authority = rest[..<(authorityEnd ?? rest.endIndex)]
        if authority.contains(UInt8(ascii: "@")) {
            throw .invalidURL("a user name or password in the URL is not supported")
        }
        let (host, port) = try Self.parseAuthority(authority, scheme: scheme)
        self.scheme = scheme
        self.host = host
        self.port = port
        self.pathAndQuery = try Self.parsePathAndQuery(rest[(authorityEnd ?? rest.endIndex)...])
    }

    /// Whether the host is a literal IPv6 address (bracketed in URLs and `Host`).
    public var isIPv6: Bool { host.utf8.contains(UInt8(ascii: ":")) }

    /// `host[:port]` as the `Host` header and a `CONNECT` line want it: IPv6 in brackets, the
    /// port left out when it is the scheme's default.
    public var authority: String {
        let name = isIPv6 ? "[\(host)]" : host
        return port == scheme.defaultPort ? name : "\(name):\(port)"
    }

    /// `host:port` with the port always present, for `CONNECT`.
    var hostAndPort: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    public var description: String { "\(scheme.rawValue)://\(authority)\(pathAndQuery)" }

    // MARK: Parsing

    private static let schemeSeparator = Array("://".utf8)

    private static func parseAuthority(_ authority: ArraySlice<UInt8>, scheme: Scheme) throws(HTTPError) -> (
        String, Int
    ) {
        var hostBytes: ArraySlice<UInt8>
        var portBytes: ArraySlice<UInt8>?
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else {
                throw .invalidURL("an IPv6 address without its closing ']'")
            }
            hostBytes = authority[(authority.startIndex + 1)..<close]
            let after = authority[(close + 1)...]
            if let colon = after.first {
                guard colon == UInt8(ascii: ":") else { throw .invalidURL("unexpected text after ']'") }
                portBytes = after.dropFirst()
            }
            let address = String(decoding: hostBytes, as: UTF8.self)
            guard IPAddress.isIPv6(address) else { throw .invalidURL("'\(address)' is not an IPv6 address") }
        } else {
            let colons = authority.indices.filter { authority[$0] == UInt8(ascii: ":") }
            guard colons.count <= 1 else { throw .invalidURL("an IPv6 address must be written in brackets") }
            hostBytes = authority[..<(colons.first ?? authority.endIndex)]
            if let colon = colons.first { portBytes = authority[(colon + 1)...] }
            try validateHostName(hostBytes)
        }
        guard !hostBytes.isEmpty else { throw .invalidURL("no host") }
        let host = String(decoding: hostBytes, as: UTF8.self).lowercased()
        guard let portBytes, !portBytes.isEmpty else { return (host, scheme.defaultPort) }
        let portText = String(decoding: portBytes, as: UTF8.self)
        guard portBytes.allSatisfy(\.isASCIIDigit), portBytes.count <= 5, let port = Int(portText),
            (1...65535).contains(port)
        else {
            throw .invalidURL("bad port '\(portText)'")
        }
        return (host, port)
    }

    /// Letters, digits, `-`, `.` and `_` (DNS names and IPv4 addresses); non-ASCII names would
    /// need IDNA, which the client does not do.
    private static func validateHostName(_ bytes: ArraySlice<UInt8>) throws(HTTPError) {
        for byte in bytes
        where
            !(byte.isASCIIDigit || byte.isASCIILetter || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_"))
        {
            if byte >= 0x80 { throw .invalidURL("non-ASCII host names are not supported") }
            throw .invalidURL("'\(Character(Unicode.Scalar(byte)))' in the host name")
        }
    }

    /// The path and query as sent on the request line: `/` when empty, the fragment dropped,
    /// non-ASCII bytes percent-encoded, spaces and control characters refused.
    private static func parsePathAndQuery(_ bytes: ArraySlice<UInt8>) throws(HTTPError) -> String {
        let withoutFragment = bytes[..<(bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex)]
        var result: [UInt8] = []
        result.reserveCapacity(withoutFragment.count + 1)
        if withoutFragment.first != UInt8(ascii: "/") { result.append(UInt8(ascii: "/")) }
        for byte in withoutFragment {
            if byte <= 0x20 || byte == 0x7F { throw .invalidURL("a space or control character in the path") }
            if byte >= 0x80 {
                result.append(UInt8(ascii: "%"))
                result.append(hexDigit(byte >> 4))
                result.append(hexDigit(byte & 0x0F))
            } else {
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }
}
