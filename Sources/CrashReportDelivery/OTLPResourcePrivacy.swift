/// Which resource attributes the operator asks for (`OTEL_RESOURCE_ATTRIBUTES`,
/// `OTLPOptions.resourceAttributes`) may leave the machine. A crash report never names a
/// person or a machine (docs/opentelemetry.md, "Privacy"), so a key is dropped when:
///
/// - it is in a namespace about a machine, a person or a network peer: `host.`, `os.` (the
///   transport sends `os.type` and the kernel release itself), `user.`, `enduser.`, `client.`,
///   `server.`, `source.`, `destination.`, `network.`, `net.`, `device.`, `geo.`, `k8s.node.`,
///   `k8s.pod.`, or `process.` other than `process.runtime.`;
/// - its last part names an identifier of one instance or an address: `id`, `uid`, `arn`,
///   `instance`, `hostname`, `ip`, `address`, `mac`, `resource_id`, `owner`, `email` (so
///   `service.instance.id`, `container.id`, `k8s.cluster.uid`, `cloud.account.id`,
///   `faas.instance`, `aws.ecs.task.arn`);
/// - or any of its parts is `instance` or `hostname` (`gcp.gce.instance.name`).
///
/// Everything else is kept as given: `service.*` but the instance id, `deployment.*`,
/// `cloud.provider`, `cloud.region`, `k8s.namespace.name`, `k8s.deployment.name`,
/// `container.image.name`, a team's own `team=payments`. Values are not inspected.
package enum OTLPResourcePrivacy {
    static let droppedNamespaces = [
        "host.", "os.", "user.", "enduser.", "client.", "server.", "source.", "destination.", "network.", "net.",
        "device.", "geo.", "k8s.node.", "k8s.pod.",
    ]
    static let droppedLastParts: Set<String> = [
        "id", "uid", "arn", "instance", "hostname", "ip", "address", "mac", "resource_id", "owner", "email",
    ]

    /// Whether a resource attribute of this key may be sent.
    package static func allows(_ key: String) -> Bool {
        let lower = key.lowercased()
        if droppedNamespaces.contains(where: { lower.hasPrefix($0) }) { return false }
        if lower.hasPrefix("process."), !lower.hasPrefix("process.runtime.") { return false }
        let parts = lower.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if let last = parts.last, droppedLastParts.contains(last) { return false }
        return !parts.contains("instance") && !parts.contains("hostname")
    }

    /// The pairs that may be sent, and the keys of the others, both in order; a repeated key
    /// keeps its last value, as OpenTelemetry's SDKs do.
    static func partition(_ pairs: [(String, String)]) -> (kept: [(String, String)], dropped: [String]) {
        var kept: [(String, String)] = []
        var dropped: [String] = []
        for (key, value) in pairs {
            guard allows(key) else {
                if !dropped.contains(key) { dropped.append(key) }
                continue
            }
            if let index = kept.firstIndex(where: { $0.0 == key }) {
                kept[index].1 = value
            } else {
                kept.append((key, value))
            }
        }
        return (kept, dropped)
    }
}
