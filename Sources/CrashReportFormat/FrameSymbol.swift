/// What a symbolicator found for one frame: where a later symbolicator plugs into rendering.
///
/// A frame can resolve to several symbols when calls were inlined into it: pass them as an array
/// per frame index, innermost first, every entry but the last with `inlined: true` (the shape
/// `addr2line -i` and `llvm-symbolizer` produce). Frames with no entry render with their raw
/// address and `image+offset` only.
public struct FrameSymbol: Sendable, Equatable {
    /// The (demangled) function name.
    public var function: String
    /// The source file, when debug information had one.
    public var file: String?
    /// The source line, when known.
    public var line: Int?
    /// Bytes from the start of `function` to the frame's address, when known.
    public var offset: UInt64?
    /// This call was inlined into the next entry of the same frame.
    public var inlined: Bool
    /// The symbol's linkage name (`$sSa…` for a Swift function), when it differs from
    /// ``function``: it says which module a function belongs to, which the demangled name may not
    /// (`specialized Array.subscript.getter` is the standard library's, compiled into the app).
    public var mangledName: String?

    /// A symbol with each of its fields; only `function` is needed.
    public init(
        function: String, file: String? = nil, line: Int? = nil, offset: UInt64? = nil, inlined: Bool = false,
        mangledName: String? = nil
    ) {
        self.function = function
        self.file = file
        self.line = line
        self.offset = offset
        self.inlined = inlined
        self.mangledName = mangledName
    }

    /// `function + 12 at file:line`, as the text renderer prints it.
    public var text: String {
        var text = function
        if let offset { text += " + \(offset)" }
        if let file {
            text += " at \(file)"
            if let line { text += ":\(line)" }
        }
        return text
    }
}
