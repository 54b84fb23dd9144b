import CrashReportFormat
import Foundation

/// A report file as the tests read it: the decompressed JSON text (to search for secrets),
/// the JSON object (to check members), and the decoded, schema-validated model.
struct ReportFile {
    let text: String
    let json: [String: Any]

    init(_ url: URL) throws {
        let data = Data(try Gzip.decompress(Data(contentsOf: url)))
        text = String(decoding: data, as: UTF8.self)
        json = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    var crash: [String: Any] { json["crash"] as? [String: Any] ?? [:] }
    var signal: [String: Any] { crash["signal"] as? [String: Any] ?? [:] }
    var thread: [String: Any] { crash["thread"] as? [String: Any] ?? [:] }
    var frames: [[String: Any]] { crash["frames"] as? [[String: Any]] ?? [] }
    var images: [[String: Any]] { json["images"] as? [[String: Any]] ?? [] }
    var breadcrumbs: [[String: Any]] {
        (json["breadcrumbs"] as? [String: Any])?["items"] as? [[String: Any]] ?? []
    }

    static func address(_ value: Any?) -> UInt64 {
        guard let text = value as? String, text.hasPrefix("0x") else { return 0 }
        return UInt64(text.dropFirst(2), radix: 16) ?? 0
    }

    /// The symbols of the frames that fall in the main executable, looked up in `symbols`
    /// (a return address is looked up one byte back, inside its call instruction).
    func mainImageSymbols(_ symbols: ELFSymbols) -> [String] {
        guard let mainIndex = images.firstIndex(where: { $0["main"] as? Bool == true }) else { return [] }
        let base = Self.address(images[mainIndex]["base"])
        return frames.compactMap { frame in
            guard frame["image"] as? Int == mainIndex else { return nil }
            let ip = Self.address(frame["ip"]) - base
            return symbols.symbol(containing: frame["trust"] as? String == "context" ? ip : ip - 1)
        }
    }
}
