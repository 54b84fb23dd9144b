import Glibc

/// Literal IP addresses, as `inet_pton` reads them: the URL parser checks that what stands in
/// brackets is an IPv6 address.
enum IPAddress {
    static func isIPv6(_ text: String) -> Bool { parses(text, family: AF_INET6) }

    private static func parses(_ text: String, family: Int32) -> Bool {
        var buffer = in6_addr()
        return withUnsafeMutableBytes(of: &buffer) { inet_pton(family, text, $0.baseAddress) == 1 }
    }
}
