import CrashReporterSupport

/// Where the service's dependencies' source files are, so that a frame of a package the service
/// links (Vapor's `RoutesBuilder.on`, SwiftNIO's event loop) is told from the service's own code
/// although both are in the same binary (docs/grouping.md, "Dependencies").
///
/// A frame is a dependency's when the source file its debug information names is in a SwiftPM
/// checkout (its path contains `/.build/checkouts/` or Xcode's `/SourcePackages/checkouts/`), or
/// starts with one of ``prefixes``. A frame without a source file is not a dependency's.
public struct DependencyPaths: Sendable, Equatable {
    /// The parts of a path that only a package manager's checkout of a dependency has.
    public static let checkoutMarkers = ["/.build/checkouts/", "/SourcePackages/checkouts/"]

    /// Further path prefixes of dependencies' sources (a vendored directory, another build
    /// system's cache), from `CRASH_REPORTER_DEPENDENCY_PATHS`.
    public var prefixes: [String]

    /// The checkouts and `prefixes` (empty prefixes are ignored).
    public init(prefixes: [String] = []) {
        self.prefixes = prefixes.filter { !$0.isEmpty }
    }

    /// The checkouts and the prefixes listed in `CRASH_REPORTER_DEPENDENCY_PATHS` of `environment`
    /// (separated by `:`).
    public init(environment: [String: String]) {
        self.init(prefixes: EnvironmentSettings(environment).list(.dependencyPaths))
    }

    /// `file` is a dependency's source file.
    public func contains(file: String) -> Bool {
        Self.checkoutMarkers.contains { file.contains($0) } || prefixes.contains { file.hasPrefix($0) }
    }

    /// `symbol` is a dependency's code: its source file is one (``contains(file:)``).
    public func isDependency(_ symbol: FrameSymbol) -> Bool {
        symbol.file.map(contains(file:)) ?? false
    }
}
