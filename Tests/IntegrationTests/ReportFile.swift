import CrashReportFormat
import Foundation

/// A report file as the tests read it: the decompressed JSON text (to search for secrets),
/// the JSON object (to check members), and the decoded, schema-validated model.
struct ReportFile {
    let text: String
    let json: [String: Any]
    /// The report as the format module reads it; nil when it does not read.
    let model: CrashReport?

    init(_ url: URL) throws {
        let data = Data(try Gzip.decompress(Data(contentsOf: url)))
        text = String(decoding: data, as: UTF8.self)
        json = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        model = try? ReportDecoding.decode(json: data)
    }

    var crash: [String: Any] { json["crash"] as? [String: Any] ?? [:] }
    var signal: [String: Any] { crash["signal"] as? [String: Any] ?? [:] }
    var thread: [String: Any] { crash["thread"] as? [String: Any] ?? [:] }
    var frames: [[String: Any]] { crash["frames"] as? [[String: Any]] ?? [] }
    var images: [[String: Any]] { json["images"] as? [[String: Any]] ?? [] }
    var kind: String? { json["kind"] as? String }
    var snapshot: [String: Any] { json["snapshot"] as? [String: Any] ?? [:] }
    /// `threads` as written: a thread whose stack is an earlier one's names it (`frames_as`).
    var writtenThreads: [[String: Any]] { json["threads"] as? [[String: Any]] ?? [] }
    /// `threads` with every thread's own `frames`: those of a thread that names an earlier one's
    /// stack are the ones the format module read for it.
    var threads: [[String: Any]] {
        writtenThreads.enumerated().map { index, written in
            guard written["frames_as"] != nil, let read = model?.threads[index] else { return written }
            var thread = written
            thread["frames"] = read.frames.map { frame -> [String: Any] in
                ["ip": frame.ip.hex, "sp": frame.sp.hex, "trust": frame.trust.rawValue, "image": frame.image]
            }
            return thread
        }
    }

    /// The thread named `name` in `threads`.
    func thread(named name: String) -> [String: Any]? { threads.first { $0["name"] as? String == name } }

    /// The name of the image a frame points into (`-1`: none).
    func imageName(of frame: [String: Any]) -> String? {
        guard let index = frame["image"] as? Int, images.indices.contains(index) else { return nil }
        return images[index]["name"] as? String
    }
    var breadcrumbs: [[String: Any]] {
        (json["breadcrumbs"] as? [String: Any])?["items"] as? [[String: Any]] ?? []
    }

    static func address(_ value: Any?) -> UInt64 {
        guard let text = value as? String, text.hasPrefix("0x") else { return 0 }
        return UInt64(text.dropFirst(2), radix: 16) ?? 0
    }

    /// The symbols of the frames that fall in the main executable, looked up in `symbols`
    /// (a return address is looked up one byte back, inside its call instruction; a faulting
    /// instruction and an async resume point as they are).
    func mainImageSymbols(_ symbols: ELFSymbols, frames: [[String: Any]]? = nil) -> [String] {
        imageSymbols(symbols, image: images.firstIndex { $0["main"] as? Bool == true }, frames: frames ?? self.frames)
    }

    /// The symbols of the frames that fall in image `index`, looked up in `symbols` (that image's file):
    /// a return address one byte back, a context's ip or an async frame's resume entry as it is.
    func imageSymbols(_ symbols: ELFSymbols, image index: Int?, frames: [[String: Any]]) -> [String] {
        guard let mainIndex = index, images.indices.contains(mainIndex) else { return [] }
        let base = Self.address(images[mainIndex]["base"])
        return frames.compactMap { frame in
            guard frame["image"] as? Int == mainIndex else { return nil }
            let ip = Self.address(frame["ip"]) - base
            return symbols.symbol(containing: ["context", "async"].contains(frame["trust"] as? String) ? ip : ip - 1)
        }
    }
}
