/// The function an async function's piece belongs to. The compiler splits an async function at
/// each `await` into partial functions that the demangler names `(2) await resume partial
/// function for level2()` (and `suspend resume partial function`); a resume point's symbol, and
/// a running async function's own frame, is one of them. They are shown, and crash signatures
/// group, by the function they belong to (`level2()`): the piece's number moves whenever an
/// `await` is added or removed above it.
enum AsyncFunctionName {
    static let pieces = [
        "await resume partial function for ", "suspend resume partial function for ", "resume partial function for ",
    ]

    /// `name` without the partial-function prefix; any other name as it is.
    static func owner(of name: String) -> String {
        var rest = Substring(name)
        if rest.hasPrefix("("), let close = rest.firstIndex(of: ")"),
            rest[rest.index(after: rest.startIndex)..<close].allSatisfy(\.isNumber),
            rest[rest.index(after: close)...].hasPrefix(" ")
        {
            rest = rest[rest.index(close, offsetBy: 2)...]
        }
        guard let piece = pieces.first(where: { rest.hasPrefix($0) }) else { return name }
        let owner = rest.dropFirst(piece.count)
        return owner.isEmpty ? name : String(owner)
    }
}
