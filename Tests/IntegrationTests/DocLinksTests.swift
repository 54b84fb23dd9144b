import Foundation
import Testing

/// Every relative link in README.md, docs/*.md and the decision records (docs/decisions/*.md)
/// names a file of the repository, and every `#fragment` a heading (or an explicit anchor) of the
/// page it points at, as GitHub spells heading anchors: so a moved document or a renamed heading
/// fails here, not for a reader.
@Suite("Doc links")
struct DocLinksTests {
    static let root = Binaries.packageRoot

    static func documents() throws -> [URL] {
        let pages = try ["docs", "docs/decisions"].flatMap { folder in
            try FileManager.default.contentsOfDirectory(
                at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil
            ).filter { $0.pathExtension == "md" }
        }
        return [root.appendingPathComponent("README.md")] + pages.sorted { $0.path < $1.path }
    }

    /// The text outside fenced code blocks, where a `](…)` is a link.
    static func prose(_ text: String) -> [Substring] {
        var inCode = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            if line.hasPrefix("```") {
                inCode.toggle()
                return false
            }
            return !inCode
        }
    }

    /// GitHub's anchor for a heading: lower case, punctuation other than `-` and `_` dropped,
    /// spaces as `-`, and `-1`, `-2`… for repeats.
    static func anchors(_ text: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var result: Set<String> = []
        for line in prose(text) {
            if let range = line.range(of: #"<a (name|id)="[^"]+""#, options: .regularExpression) {
                result.insert(String(line[range].split(separator: "\"")[1]))
            }
            guard line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            let slug = String(
                title.unicodeScalars.filter {
                    CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" || $0 == " "
                }.map(Character.init)
            ).replacingOccurrences(of: " ", with: "-")
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            result.insert(count == 0 ? slug : "\(slug)-\(count)")
        }
        return result
    }

    /// The targets of `[text](target)` links that are not URLs with a scheme.
    static func relativeLinks(_ text: String) throws -> [String] {
        let pattern = try Regex(#"\]\(([^)\s]+)\)"#)
        return prose(text).flatMap { line in
            line.matches(of: pattern).compactMap { match in
                let target = String(line[match.range].dropFirst(2).dropLast())
                return target.contains(":") && !target.hasPrefix("#") ? nil : target
            }
        }
    }

    @Test("every relative link names a file, and every fragment a heading of that page")
    func linksResolve() throws {
        var broken: [String] = []
        var checked = 0
        for page in try Self.documents() {
            let text = try String(contentsOf: page, encoding: .utf8)
            for link in try Self.relativeLinks(text) {
                checked += 1
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0])
                let target = path.isEmpty ? page : page.deletingLastPathComponent().appendingPathComponent(path)
                let name = "\(page.lastPathComponent): \(link)"
                guard FileManager.default.fileExists(atPath: target.standardized.path) else {
                    broken.append("\(name) (no such file)")
                    continue
                }
                if parts.count == 2, target.pathExtension == "md" {
                    let anchors = Self.anchors(try String(contentsOf: target, encoding: .utf8))
                    if !anchors.contains(String(parts[1])) { broken.append("\(name) (no such heading)") }
                }
            }
        }
        #expect(checked > 100, "expected the docs' links, found \(checked)")
        #expect(broken.isEmpty, "broken links:\n\(broken.joined(separator: "\n"))")
    }

    @Test("the anchor rule gives GitHub's anchors, so a wrong fragment is caught")
    func anchorRule() {
        let page = "# Start and the crash path's cost\n## `lastRun`\n## `lastRun`\n```\n# not a heading\n```\n"
        let anchors = Self.anchors(page)
        #expect(anchors == ["start-and-the-crash-paths-cost", "lastrun", "lastrun-1"])
    }
}
