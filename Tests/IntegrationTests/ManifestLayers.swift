/// The manifest's layering rule over plain data: the targets in the order Package.swift lists
/// them (top down) and each one's dependencies. Package.swift lists the layers from the top: each
/// target depends only on targets listed below it. Tests, their support, the examples and the
/// benchmarks sit outside the layers (listed last, they use the layers and nothing uses them).
/// `LayeringTests` reads the real manifest into one and plants broken ones.
struct ManifestLayers {
    /// Every target, in the manifest's order.
    var order: [String]
    /// Each target's dependencies by name: targets of this package, and products of others (which
    /// the rule leaves out).
    var edges: [String: [String]]
    /// The targets outside the layers: tests, examples, benchmarks.
    var clients: Set<String>

    /// One line per broken rule, empty when the layers hold:
    /// - a target of the layers depends on one the manifest lists above it (a target listed below
    ///   one it depends on, or an edge that points up);
    /// - a target of the layers depends on a test, an example or a benchmark.
    func violations() -> [String] {
        let position = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var found: [String] = []
        for (index, target) in order.enumerated() where !clients.contains(target) {
            for dependency in edges[target] ?? [] {
                guard let at = position[dependency] else { continue }  // another package's product
                if clients.contains(dependency) {
                    found.append("\(target) depends on \(dependency), which is outside the layers")
                } else if at < index {
                    found.append(
                        "\(target) (target \(index + 1)) depends on \(dependency) (target \(at + 1)), listed above it")
                }
            }
        }
        return found
    }
}
