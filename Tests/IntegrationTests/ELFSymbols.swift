import Foundation

/// The function symbols of an ELF file, from `nm`, to check that a report's frame lands in
/// the function that crashed: the binary's own symbol table is the judge, not our code.
struct ELFSymbols {
    private var starts: [UInt64] = []
    private var names: [String] = []

    init(file: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/nm")
        process.arguments = ["--defined-only", "-n", file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 3, "tTwW".contains(parts[1]), let address = UInt64(parts[0], radix: 16) else {
                continue
            }
            starts.append(address)
            names.append(String(parts[2]))
        }
    }

    /// The first symbol whose (mangled) name satisfies `matches`: its start and its name.
    func first(where matches: (String) -> Bool) -> (start: UInt64, name: String)? {
        names.firstIndex(where: matches).map { (starts[$0], names[$0]) }
    }

    /// The symbol whose code contains `address` (a file-relative virtual address).
    func symbol(containing address: UInt64) -> String? {
        var low = 0
        var high = starts.count
        while low < high {
            let mid = (low + high) / 2
            if starts[mid] <= address { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : names[low - 1]
    }
}
