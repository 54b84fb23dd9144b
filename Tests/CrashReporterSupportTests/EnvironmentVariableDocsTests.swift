import Foundation
import Testing

@testable import CrashReporterSupport

/// The environment variables as a user reads of them: every variable the package reads is
/// documented on a user's page (docs/ beside the decision records, or the README), and every variable of
/// the package's families named anywhere (docs, README, comments and strings in `Sources`) is one
/// it reads, or one the manifest or a script reads or sets. A renamed variable cannot leave its old name
/// behind in a page or a comment.
@Suite("Environment variables and their docs")
struct EnvironmentVariableDocsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The names of the families the package owns or reads (`CRASH_REPORTER_`, `SENTRY_`, `OTEL_`,
    /// the providers'): a name of one of them that nothing reads is a stale or mistyped one. A
    /// prefix alone, or one that ends in `_` (`OTEL_EXPORTER_OTLP_*` in prose), is not a name.
    static func familyNameMatches(in text: String) -> [Regex<Substring>.Match] {
        text.matches(
            of: #/\b(?:CRASH_REPORTER|CRASH_COLLECTOR|SENTRY|OTEL|EVENTS|TELEMETRYDECK|POSTHOG)_[A-Z0-9_]*[A-Z0-9]\b/#)
    }

    static func familyNames(in text: String) -> Set<String> {
        Set(familyNameMatches(in: text).map { String($0.output) })
    }

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Files below `folder` whose names end in `suffix`, as paths from the package root.
    static func files(in folder: String, endingIn suffix: String) throws -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(suffix) }.map { folder + "/" + $0 }.sorted()
    }

    /// What the manifest and the scripts read or set themselves (`CRASH_REPORTER_FUZZ`, ...):
    /// names after `environment["` or `$` (`${`), or before `=`, there; a name they only mention
    /// does not count.
    static func buildVariables() throws -> Set<String> {
        var text = try Self.text("Package.swift")
        for script in try files(in: "scripts", endingIn: ".sh") { text += try Self.text(script) }
        let used = familyNameMatches(in: text).filter { match in
            let before = text[..<match.range.lowerBound]
            return before.hasSuffix("environment[\"") || before.hasSuffix("$") || before.hasSuffix("${")
                || text[match.range.upperBound...].hasPrefix("=")
        }
        return Set(used.map { String($0.output) })
    }

    @Test("every variable the package reads is documented for users")
    func everyVariableIsDocumented() throws {
        var pages = try Self.text("README.md")
        for page in try Self.files(in: "docs", endingIn: ".md") where !page.hasPrefix("docs/decisions/") {
            pages += try Self.text(page)
        }
        for variable in EnvironmentVariable.allCases where !pages.contains(variable.name) {
            Issue.record("\(variable.name) is read (an EnvironmentVariable) but no page of docs/ names it")
        }
    }

    @Test("every variable named in the docs and in Sources is one the package, the manifest or a script reads")
    func everyNamedVariableIsRead() throws {
        let read = Set(EnvironmentVariable.allCases.map(\.name)).union(try Self.buildVariables())
        var places = ["README.md"] + (try Self.files(in: "docs", endingIn: ".md"))
        places += try Self.files(in: "Sources", endingIn: ".swift")
        var checked = 0
        for place in places {
            for name in Self.familyNames(in: try Self.text(place)) where !read.contains(name) {
                Issue.record("\(place) names \(name), which nothing reads")
            }
            checked += 1
        }
        #expect(checked > 100)
    }

    @Test("the name finder takes whole names of the families and nothing else")
    func familyNamesFinder() {
        let text = "Set `SENTRY_DSN`; the CRASH_REPORTER_CAP_* variables, OTEL_EXPORTER_OTLP_, SENTRY_ alone, LANG."
        #expect(Self.familyNames(in: text) == ["SENTRY_DSN"])
    }
}
