import CrashReportFormat
import Foundation
import TestSupport
import Testing

/// A framework service's stack (docs/grouping.md, "Dependencies and compiler thunks"): the
/// dependencies' frames, told by their source paths, and the compiler's thunks, folded.
@Suite("Dependencies' frames and compiler thunks")
struct DependencyFramesTests {
    static let app = "/src/orders/Sources/App/routes.swift"
    static let vapor = "/src/orders/.build/checkouts/vapor/Sources/Vapor/Routing/RoutesBuilder+Method.swift"
    static let responder = "/src/orders/.build/checkouts/vapor/Sources/Vapor/Responder/AsyncResponder.swift"
    static let nio = "/home/ci/SourcePackages/checkouts/swift-nio/Sources/NIOCore/EventLoopFuture.swift"

    /// A Vapor async route's crash, innermost first, every frame in the main executable.
    static let vaporStack: [[FrameSymbol]] = [
        [FrameSymbol(function: "closure #1 in routes(_:)", file: app, line: 12)],
        [FrameSymbol(function: "partial apply for closure #1 in routes(_:)")],
        [FrameSymbol(function: "RoutesBuilder.on(_:_:body:use:)", file: vapor, line: 40)],
        [FrameSymbol(function: "reabstraction thunk helper from @escaping @callee_guaranteed () -> ()")],
        [FrameSymbol(function: "AsyncResponder.respond(to:)", file: responder, line: 20)],
        [FrameSymbol(function: "EventLoopPromise.completeWithTask(_:)", file: nio, line: 7)],
        [FrameSymbol(function: "configure(_:)", file: app, line: 3)],
    ]

    static func symbols(_ stack: [[FrameSymbol]]) -> ReportSymbols {
        var crash: [Int: [FrameSymbol]] = [:]
        for (index, found) in stack.enumerated() { crash[index] = found }
        return ReportSymbols(crash: crash, threads: [0: crash])
    }

    /// `validV2()` with its crashing thread's frames at `offsets` in the main executable.
    static func report(offsets: [Int]) throws -> CrashReport {
        let frames: [[String: Any]] = offsets.enumerated().map { index, offset in
            [
                "ip": "0x" + String(0x55d0_c380_0000 + offset, radix: 16), "sp": "0x7ffd5e1c8a30",
                "trust": index == 0 ? "context" : "cfi", "image": 0,
            ]
        }
        var object = ReportFixture.replacing(ReportFixture.validV2(), "/crash/frames", with: frames)
        object = ReportFixture.replacing(object, "/threads/0/frames", with: frames)
        object = ReportFixture.replacing(object, "/threads/0/frames_omitted_at", with: frames.count)
        object = ReportFixture.replacing(object, "/crash/frames_omitted_at", with: frames.count)
        object = ReportFixture.replacing(object, "/crash/message", with: NSNull())
        return try ReportDecoding.decode(json: try ReportFixture.json(object))
    }

    static let offsets = [0x100, 0x200, 0x300, 0x400, 0x500, 0x600, 0x700]

    @Test func checkoutsAndConfiguredPrefixesAreDependencies() {
        let paths = DependencyPaths(environment: ["CRASH_REPORTER_DEPENDENCY_PATHS": "/src/vendor/::/opt/lib/"])
        #expect(paths.prefixes == ["/src/vendor/", "/opt/lib/"])
        #expect(paths.contains(file: Self.vapor) && paths.contains(file: Self.nio))
        #expect(paths.contains(file: "/src/vendor/yams/Parser.swift"))
        #expect(!paths.contains(file: Self.app))
        #expect(!paths.contains(file: "/work/src/vendor/x.swift"), "a prefix, not anywhere in the path")
        #expect(!DependencyPaths().isDependency(FrameSymbol(function: "noDebugInfo()")))
    }

    @Test func aSignatureIsNamedByTheAppsFramesOnly() throws {
        let signature = CrashSignature(
            report: try Self.report(offsets: Self.offsets), symbols: Self.symbols(Self.vaporStack))
        #expect(signature.frames == ["closure #1 in routes(_:)", "configure(_:)"])
        #expect(signature.hasNames)
    }

    @Test func aCrashWithNoFrameOfTheAppIsNamedByItsDependencies() throws {
        let stack = Array(Self.vaporStack[2...5])
        let signature = CrashSignature(
            report: try Self.report(offsets: Array(Self.offsets[..<4])), symbols: Self.symbols(stack))
        #expect(
            signature.frames == [
                "RoutesBuilder.on(_:_:body:use:)", "AsyncResponder.respond(to:)",
                "EventLoopPromise.completeWithTask(_:)",
            ])
        #expect(signature.hasNames)
    }

    @Test func theTextFoldsThunksAndMarksDependencies() throws {
        let report = try Self.report(offsets: Self.offsets)
        let renderer = TextRenderer(symbols: Self.symbols(Self.vaporStack))
        let text = try #require(renderer.crashingThread(report))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[1].hasSuffix("closure #1 in routes(_:) at \(Self.app):12  (+1 thunk)"))
        #expect(lines[2].hasPrefix("  2  ") && lines[2].hasSuffix("\(Self.vapor):40 [dependency]  (+1 thunk)"))
        #expect(lines[3].hasPrefix("  4  ") && lines[3].hasSuffix("[dependency]"))
        #expect(!text.contains("partial apply") && !text.contains("reabstraction thunk"))
        #expect(lines[5].hasPrefix("  6  ") && !lines[5].contains("[dependency]"))

        var shown = renderer
        shown.showsThunks = true
        let all = try #require(shown.crashingThread(report))
        #expect(all.contains("  1  crash-test") && all.contains("partial apply for closure #1 in routes(_:)"))
        #expect(!all.contains("thunk)"))
    }

    @Test func aConfiguredPrefixMarksAFrameButLeavesTheSignatureAlone() throws {
        let report = try Self.report(offsets: Self.offsets)
        let symbols = Self.symbols(Self.vaporStack)
        let renderer = TextRenderer(symbols: symbols, dependencies: DependencyPaths(prefixes: ["/src/orders/Sources/"]))
        let text = try #require(renderer.crashingThread(report))
        #expect(text.contains("routes.swift:12 [dependency]"))
        #expect(CrashSignature(report: report, symbols: symbols).frames.first == "closure #1 in routes(_:)")
    }

    @Test func thunksByTheDemanglersNames() {
        for name in [
            "partial apply for closure #1 in routes(_:)", "reabstraction thunk helper from @escaping () -> ()",
            "thunk for @escaping @callee_guaranteed () -> ()",
            "protocol witness for Responder.respond(to:) in conformance X",
            "dispatch thunk of Responder.respond(to:)",
            "@objc closure #10 in BetterHTTPParser.init(kind:configuration:)",
        ] {
            #expect(CompilerThunks.isThunk(name), "\(name)")
        }
        for name in [
            "closure #1 in routes(_:)", "merged closure #1 in f()", "(1) await resume partial function for level2()",
            "RoutesBuilder.on(_:body:use:)",
        ] {
            #expect(!CompilerThunks.isThunk(name), "\(name)")
        }
    }

    @Test func aThunkStaysInACycleAndAsTheInnermostFrame() throws {
        let thunk = [FrameSymbol(function: "partial apply for walk(_:)")]
        let walk = [FrameSymbol(function: "walk(_:)", file: Self.app)]
        // innermost: a thunk; then walk ← thunk repeated three times.
        let report = try Self.report(offsets: [0x10, 0x20, 0x30, 0x20, 0x30, 0x20, 0x30])
        let stack = try #require(
            report.crashCallStack(symbols: Self.symbols([thunk, walk, thunk, walk, thunk, walk, thunk])))
        let (lines, folded) = stack.foldingThunks()
        #expect(lines == stack.lines)
        #expect(folded.isEmpty)
        #expect(stack.isThunk(0) && !stack.isThunk(1))
    }
}
