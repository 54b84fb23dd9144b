#if os(Linux) && canImport(Runtime)
    @_spi(Internal) internal import Runtime

    /// Names as the runtime's symbolicator gives them (its demangler, in its simplified form:
    /// `specialized Array.subscript.getter`), for the names the ELF and DWARF readers find.
    enum RuntimeDemangling {
        static func name(of rawName: String) -> String {
            SymbolicatedBacktrace.Symbol(imageIndex: 0, imageName: "", rawName: rawName, offset: 0, sourceLocation: nil)
                .name
        }
    }
#else
    enum RuntimeDemangling {
        static func name(of rawName: String) -> String { rawName }
    }
#endif
