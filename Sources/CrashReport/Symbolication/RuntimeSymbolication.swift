import Foundation
import Synchronization

#if os(Linux) && canImport(Runtime)
    @_spi(Internal) internal import Runtime

    /// The bridge to the Swift runtime's symbolicator (`Runtime.Backtrace.symbolicated`): the
    /// report's images become an `ImageMap` (via the Compact ImageMap Format), its frames a
    /// `Backtrace` (`programCounter` for the context frame, `returnAddress` for the others, so
    /// that the runtime looks up `ip - 1` for those), and the symbolicated frames come back
    /// grouped per report frame.
    enum RuntimeSymbolication {
        static func run(frames: [CrashReport.Frame], images: [Int: UsableImage], architecture: String)
            -> (symbols: [Int: [FrameSymbol]], runtimeFailure: String?)
        {
            let ordered = images.sorted { $0.value.image.base < $1.value.image.base }
            let entries = ordered.map { _, usable in
                CompactImageMap.Entry(
                    base: usable.image.base.rawValue,
                    end: usable.image.base.rawValue &+ max(usable.loadEnd, 1),
                    buildID: bytes(ofHex: usable.image.buildID),
                    path: usable.path)
            }
            let platform = "\(architecture.isEmpty ? "x86_64" : architecture)-unknown-linux-gnu"
            guard let map = ImageMap(compactImageMapData: CompactImageMap.encode(platform: platform, entries: entries))
            else { return ([:], nil) }
            // The runtime's image index back to the report's.
            var reportIndex: [Int: Int] = [:]
            for (position, image) in map.enumerated() {
                if let match = ordered.first(where: { $0.value.image.base.rawValue == UInt64(image.baseAddress) }) {
                    reportIndex[position] = match.key
                }
            }
            let richFrames = frames.map { frame -> RichFrame<UInt64> in
                frame.trust == .context ? .programCounter(frame.ip.rawValue) : .returnAddress(frame.ip.rawValue)
            }
            let backtrace = Backtrace(architecture: architecture, frames: richFrames, images: map)
            let runtimeToReport = reportIndex
            return onFreshThread {
                group(backtrace.symbolicated(with: map, options: [.showInlineFrames, .showSourceLocations]),
                    frames: frames, reportIndex: runtimeToReport)
            }
        }

        /// Splits the runtime's flat list (each frame's inlined calls, then the frame itself)
        /// back into report frames, and keeps only symbols from the image the report names.
        private static func group(
            _ symbolicated: SymbolicatedBacktrace?, frames: [CrashReport.Frame], reportIndex: [Int: Int]
        ) -> (symbols: [Int: [FrameSymbol]], runtimeFailure: String?) {
            guard let symbolicated else { return ([:], nil) }
            var symbols: [Int: [FrameSymbol]] = [:]
            var failure: String?
            var pending: [FrameSymbol] = []
            var index = 0
            for frame in symbolicated.frames {
                guard index < frames.count else { break }
                let expectedImage = frames[index].imageIndex
                if let symbol = frame.symbol, symbol.rawName != "<unknown>",
                    reportIndex[symbol.imageIndex] == expectedImage
                {
                    if index == 0, failure == nil, frame.isSwiftRuntimeFailure {
                        failure = symbol.rawName.hasPrefix("_") ? String(symbol.rawName.dropFirst()) : symbol.rawName
                    }
                    pending.append(convert(symbol, inlined: frame.inlined, runtimeFailure: frame.isSwiftRuntimeFailure))
                }
                if !frame.inlined {
                    if !pending.isEmpty, pending.last?.inlined == false { symbols[index] = pending }
                    pending = []
                    index += 1
                }
            }
            return (symbols, failure)
        }

        private static func convert(_ symbol: SymbolicatedBacktrace.Symbol, inlined: Bool, runtimeFailure: Bool)
            -> FrameSymbol
        {
            var file: String?
            var line: Int?
            if let location = symbol.sourceLocation, !runtimeFailure {
                file = location.path.hasSuffix("<compiler-generated>") ? "<compiler-generated>" : location.path
                line = location.line > 0 ? location.line : nil
            }
            let offset: UInt64? = inlined || symbol.offset < 0 ? nil : UInt64(symbol.offset)
            return FrameSymbol(function: symbol.name, file: file, line: line, offset: offset, inlined: inlined)
        }

        private static func bytes(ofHex hex: String) -> [UInt8] {
            var bytes: [UInt8] = []
            var index = hex.startIndex
            while let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex), index < hex.endIndex {
                guard let byte = UInt8(hex[index..<next], radix: 16) else { return [] }
                bytes.append(byte)
                index = next
            }
            return bytes
        }

        /// The runtime keeps parsed ELF files in a per-thread cache keyed by path and never
        /// drops it. Symbolicating on a thread of its own means a binary replaced at the same
        /// path is always read afresh, and the mapped files are released when the thread ends.
        private static func onFreshThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
            let box = ResultBox<T>()
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                box.set(body())
                done.signal()
            }
            thread.stackSize = 8 << 20
            thread.start()
            done.wait()
            return box.take()!
        }
    }

    private final class ResultBox<T: Sendable>: Sendable {
        private let value = Mutex<T?>(nil)
        func set(_ newValue: T) { value.withLock { $0 = newValue } }
        func take() -> T? { value.withLock { $0 } }
    }
#else
    enum RuntimeSymbolication {
        static func run(frames: [CrashReport.Frame], images: [Int: UsableImage], architecture: String)
            -> (symbols: [Int: [FrameSymbol]], runtimeFailure: String?)
        { ([:], nil) }
    }
#endif
