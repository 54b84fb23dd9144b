import CrashReporterSupport
import Foundation
import Testing

@testable import CrashReportFormat
@testable import CrashSymbolication

/// The symbolicator against this very test process: its frames and images, captured with glibc's
/// `backtrace` and the loader's program headers, are turned into a report as the crash handler would write it.
@Suite("Symbolication")
struct SymbolicationTests {
    @Test("the build id read from the file is the one the runtime sees in memory")
    func buildIDFromFile() throws {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let inMemory = try #require(SelfReport.mainBuildIDInMemory())
        let file = try ELFImageFile.inspect(path: executable)
        #expect(file.buildID == inMemory)
        #expect(file.buildID.count == 40)
        #expect(failure(inspecting: "/etc/hostname") == .notELF)
        #expect(failure(inspecting: "/nonexistent/x.so") == .missing)
        #expect(failure(inspecting: "/tmp") == .notAFile)
    }

    private func failure(inspecting path: String) -> ELFImageFile.ELFImageError? {
        do {
            _ = try ELFImageFile.inspect(path: path)
            return nil
        } catch {
            return error
        }
    }

    @Test("a report from this process gets demangled names, file:line and offsets")
    func selfSymbolication() throws {
        let (report, marker) = try SelfReport.make()
        let result = Symbolicator().symbolication(of: report)
        let all = result.symbols.crash.sorted { $0.key < $1.key }.flatMap(\.value)
        let hit = try #require(all.first { $0.function.contains("captureMarker") }, "\(all.map(\.text))")
        #expect(hit.function.contains("SelfReport"))  // demangled: the enclosing type is spelled out
        #expect(hit.file?.hasSuffix("SymbolicationTests.swift") == true)
        #expect(hit.line == marker)
        #expect(result.runtimeFailure == nil)
        let main = try #require(report.images.firstIndex { $0.main })
        #expect(result.images[main] == .matched(path: report.images[main].path))
        // The crashing thread's frames are the crash's, and get the same symbols.
        #expect(result.symbols[thread: 0] == result.symbols.crash)
        for (index, symbols) in result.symbols.crash {
            #expect(symbols.last?.inlined == false, "frame \(index)")
            #expect(symbols.dropLast().allSatisfy { $0.inlined }, "frame \(index)")
            #expect(symbols.last?.offset != nil, "frame \(index)")
        }
    }

    @Test("an image whose build id differs from the file on disk gets no symbols")
    func buildIDMismatch() throws {
        var (report, _) = try SelfReport.make()
        let main = try #require(report.images.firstIndex { $0.main })
        let real = report.images[main].buildID
        report.images[main].buildID = String(real.reversed())
        let result = Symbolicator().symbolication(of: report)
        #expect(result.images[main] == .buildIDMismatch(path: report.images[main].path, onDisk: real))
        let frames = try #require(report.crash).frames
        for (index, frame) in frames.enumerated() where frame.image == main {
            #expect(result.symbols.crash[index] == nil, "frame \(index)")
        }
        // Frames in the other images (libswiftCore, libc) are still symbolicated.
        let libc = try #require(frames.indices.last)
        #expect(frames[libc].image != main)
        #expect(result.symbols.crash[libc]?.last?.function.contains("getpid") == true, "\(result.images)")
    }

    @Test("a second report of the same build opens no file and reads no unit again")
    func secondReportReadsNothingWhole() throws {
        let (report, marker) = try SelfReport.make()
        var symbolicator = Symbolicator()
        symbolicator.cache = DebugImageCache(limit: 8)
        let first = symbolicator.symbolication(of: report)
        let afterFirst = symbolicator.cache.work
        #expect(first.symbols.crash.values.contains { $0.contains { $0.line == marker } })
        #expect(afterFirst.opened > 0 && afterFirst.unitReads > 0)
        let second = symbolicator.symbolication(of: report)
        #expect(second == first)
        #expect(symbolicator.cache.work == afterFirst)
        symbolicator.cache.removeAll()
        #expect(symbolicator.cache.work.unitReads == 0)
    }

    @Test("every thread of a snapshot is symbolicated, each by its own frame indices")
    func snapshotThreads() throws {
        let (crashReport, marker) = try SelfReport.make()
        let frames = try #require(crashReport.crash).frames
        var report = crashReport
        report.schemaVersion = 2
        report.kind = .snapshot
        report.crash = nil
        report.snapshot = .init(reason: "tests")
        // The second thread's stack is the first's outer half: its frame 0 is the first's frame k.
        let k = frames.count / 2
        report.threads = [
            .init(id: 1, name: "one", crashed: false, main: true, registers: nil, frames: frames),
            .init(id: 2, name: "two", crashed: false, main: false, registers: nil, frames: Array(frames[k...])),
            .init(
                id: 3, name: "three", crashed: false, main: false, registers: nil, frames: [],
                unwindError: "signal_blocked"),
        ]
        let result = Symbolicator().symbolication(of: report)
        #expect(result.symbols.crash.isEmpty)
        #expect(result.runtimeFailure == nil)
        let one = result.symbols[thread: 0]
        let two = result.symbols[thread: 1]
        #expect(one.values.contains { $0.contains { $0.line == marker } })
        #expect(!two.isEmpty)
        for (index, symbols) in two {
            #expect(symbols == one[index + k], "thread 2 frame \(index)")
        }
        #expect(result.symbols[thread: 2].isEmpty)
    }

    @Test("a leading ~ is the given home; missing files and the vDSO are reported, not guessed")
    func paths() throws {
        var (report, _) = try SelfReport.make()
        let main = try #require(report.images.firstIndex { $0.main })
        let path = report.images[main].path
        let folder = (path as NSString).deletingLastPathComponent
        report.images[main].path = "~/" + (path as NSString).lastPathComponent
        let symbolicator = Symbolicator(homeDirectory: folder + "/")
        #expect(symbolicator.localPath(of: report.images[main]) == path)
        #expect(symbolicator.symbolication(of: report).images[main] == .matched(path: path))
        #expect(Symbolicator(homeDirectory: nil).symbolication(of: report).images[main] == .noFile)

        report.images[main].path = "/nonexistent/crash-reporter-test"
        #expect(
            Symbolicator().symbolication(of: report).images[main] == .missing(path: "/nonexistent/crash-reporter-test"))
        report.images[main].path = "linux-vdso.so.1"
        #expect(Symbolicator().symbolication(of: report).images[main] == .noFile)
        report.images[main].buildID = ""
        #expect(Symbolicator().symbolication(of: report).images[main] == .noBuildID)
    }

    @Test("the text renderer prints what the symbolicator found")
    func rendered() throws {
        let (report, marker) = try SelfReport.make()
        let text = TextRenderer(symbols: Symbolicator().symbolicate(report)).render(report)
        #expect(text.contains("SymbolicationTests.swift:\(marker)"))
    }
}

/// A crash report of the current thread, made from glibc's `backtrace` (frame pointers and return
/// addresses; the test build keeps frame pointers). Not the runtime's `Backtrace.capture`: it lists
/// the process's images by reading every ELF file mapped in it, the symbolicator's own mappings
/// too, which another test's symbolicator may unmap meanwhile (a fault seen under ThreadSanitizer).
enum SelfReport {
    /// The report and the line of the capture (where the marker frame's location must point).
    static func make() throws -> (CrashReport, Int) {
        try captureMarker()
    }

    @inline(never)
    static func captureMarker() throws -> (CrashReport, Int) {
        typealias Capture = @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>, Int32) -> Int32
        let capture = unsafeBitCast(try #require(dlsym(nil, "backtrace")), to: Capture.self)
        var addresses = [UnsafeMutableRawPointer?](repeating: nil, count: 40)
        let line = #line + 1
        let count = Int(capture(&addresses, Int32(addresses.count)))
        return (report(from: addresses[0..<count].compactMap { $0.map { UInt64(UInt(bitPattern: $0)) } }), line)
    }

    /// The main executable's build id as loaded in memory: the GNU build-id note of its `PT_NOTE`
    /// segments, read from its ELF and program headers where the loader mapped them (the
    /// executable's first mapping, at file offset 0; a PIE's first `PT_LOAD` is at 0).
    static func mainBuildIDInMemory() -> String? {
        // An address in the executable's code: the return address into this function.
        guard let (report, _) = try? captureMarker(), let ip = report.threads.first?.frames.first?.ip,
            let image = image(containing: ip.rawValue)
        else { return nil }
        let base = UnsafeRawPointer(bitPattern: UInt(image.base.rawValue))!
        let headers = base + Int(base.loadUnaligned(fromByteOffset: 32, as: UInt64.self))  // e_phoff
        let count = Int(base.loadUnaligned(fromByteOffset: 56, as: UInt16.self))  // e_phnum
        for index in 0..<count {
            let header = headers + index * 56  // Elf64_Phdr
            guard header.loadUnaligned(as: UInt32.self) == 4 else { continue }  // PT_NOTE
            var note = base + Int(header.loadUnaligned(fromByteOffset: 16, as: UInt64.self))  // p_vaddr
            let end = note + Int(header.loadUnaligned(fromByteOffset: 40, as: UInt64.self))  // p_memsz
            while note + 12 <= end {
                let nameSize = Int(note.loadUnaligned(as: UInt32.self))
                let descSize = Int(note.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
                let desc = note + 12 + ((nameSize + 3) & ~3)
                if note.loadUnaligned(fromByteOffset: 8, as: UInt32.self) == 3, nameSize == 4 {  // NT_GNU_BUILD_ID
                    return UnsafeRawBufferPointer(start: desc, count: descSize)
                        .map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
                }
                note = desc + ((descSize + 3) & ~3)
            }
        }
        return nil
    }

    /// The image holding `address` as the crash handler lists it: the load bias (for a PIE or
    /// a shared library, the start of its first mapping), the `PT_LOAD` extent and the build id
    /// from the file. Found in `/proc/self/maps` from the executable mapping that holds the
    /// address, back through the adjacent mappings of the same file to the one at offset 0.
    /// (The runtime's `ImageMap.capture()` is not used: it takes files that the symbolicator
    /// itself has mapped for reading for loaded images.)
    static func image(containing address: UInt64) -> CrashReport.Image? {
        // Read to the end: /proc files have no size, and a whole-file read may stop early.
        guard let data = try? FileSystem.read("/proc/self/maps", limit: 64 << 20) else { return nil }
        let maps = String(decoding: data, as: UTF8.self)
        struct Mapping {
            var start: UInt64, end: UInt64, executable: Bool, offset: UInt64, path: String
        }
        let mappings: [Mapping] = maps.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[5].hasPrefix("/") else { return nil }
            let range = fields[0].split(separator: "-")
            guard range.count == 2, let start = UInt64(range[0], radix: 16), let end = UInt64(range[1], radix: 16),
                let offset = UInt64(fields[2], radix: 16)
            else { return nil }
            return Mapping(
                start: start, end: end, executable: fields[1].contains("x"), offset: offset,
                path: fields[5...].joined(separator: " "))
        }
        guard var index = mappings.firstIndex(where: { $0.executable && $0.start <= address && address < $0.end })
        else { return nil }
        let path = mappings[index].path
        while mappings[index].offset != 0, index > 0, mappings[index - 1].path == path,
            mappings[index - 1].end == mappings[index].start
        {
            index -= 1
        }
        guard mappings[index].offset == 0, let file = try? ELFImageFile.inspect(path: path) else { return nil }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        return CrashReport.Image(
            name: (path as NSString).lastPathComponent, path: path, base: Address(mappings[index].start),
            size: (mappings.filter { $0.path == path }.map(\.end).max() ?? mappings[index].end) - mappings[index].start,
            buildID: file.buildID, main: path == executable)
    }

    /// `returnAddresses` innermost first, as `backtrace` gives them.
    static func report(from returnAddresses: [UInt64]) -> CrashReport {
        var images: [CrashReport.Image] = []
        func imageIndex(_ ip: UInt64) -> Int {
            if let index = images.firstIndex(where: { $0.offset(of: Address(ip)) != nil }) { return index }
            guard let image = image(containing: ip) else { return -1 }
            images.append(image)
            return images.count - 1
        }
        var frames = returnAddresses.map { ip in
            CrashReport.Frame(ip: Address(ip), sp: 0, trust: .cfi, image: imageIndex(ip))
        }
        // The outermost frame: libc's `getpid`, found through the dynamic linker (a return
        // address one past its first byte).
        if let getpid = dlsym(nil, "getpid") {
            let ip = UInt64(UInt(bitPattern: getpid)) + 1
            frames.append(CrashReport.Frame(ip: Address(ip), sp: 0, trust: .cfi, image: imageIndex(ip)))
        }
        return CrashReport(
            reportID: "3f1c2a9e-7b4d-4c1e-9a55-0d2e8b7c6a10", timestamp: "2026-11-29T13:20:05.123Z",
            timestampMs: 1_795_958_405_123, uptimeMs: 1,
            app: .init(name: "tests", version: "", build: "", environment: ""),
            os: .init(name: "Linux", release: "", machine: "x86_64", distribution: ""),
            crash: .init(
                signal: .init(number: 11, name: "SIGSEGV", code: 1, codeName: "SEGV_MAPERR", address: 0),
                message: nil, thread: .init(id: 1, name: "tests", main: true), registers: .init([:]), frames: frames,
                framesTruncated: false, unwindError: nil),
            images: images, breadcrumbs: .init(capacity: 100, torn: 0, items: []))
    }
}
