import Glibc

/// One address to try, as `getaddrinfo` gave it.
struct ResolvedAddress {
    var family: Int32
    var storage: sockaddr_storage
    var length: socklen_t
}

/// Name resolution with `getaddrinfo`: IPv4 and IPv6 addresses in the order the system prefers
/// (RFC 6724 and /etc/gai.conf). It blocks for as long as the resolver takes (resolv.conf's
/// timeout and attempts) and cannot be cut short by the request's deadline, which it uses up.
/// `AI_ADDRCONFIG` is not used: it hides loopback addresses on hosts whose only interface is
/// loopback.
enum AddressResolver {
    static func resolve(host: String, port: Int) throws(HTTPError) -> [ResolvedAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            let reason =
                status == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(status))
            throw .dnsFailure(host: host, reason: reason)
        }
        defer { freeaddrinfo(first) }
        var addresses: [ResolvedAddress] = []
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let entry = next {
            let info = entry.pointee
            if let address = info.ai_addr, Int(info.ai_addrlen) <= MemoryLayout<sockaddr_storage>.size {
                var storage = sockaddr_storage()
                withUnsafeMutableBytes(of: &storage) {
                    $0.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(info.ai_addrlen)))
                }
                addresses.append(ResolvedAddress(family: info.ai_family, storage: storage, length: info.ai_addrlen))
            }
            next = info.ai_next
        }
        guard !addresses.isEmpty else { throw .dnsFailure(host: host, reason: "no address") }
        return addresses
    }
}
