extension CrashReport {
    /// A loaded ELF image (the executable, a shared library, the vDSO).
    public struct Image: Codable, Sendable, Equatable {
        /// The file name (`libc.so.6`).
        public var name: String
        /// The full path, with a home directory shortened to `~`; the vDSO has its name only.
        public var path: String
        /// The load bias: the address that the ELF's virtual addresses are relative to.
        public var base: Address
        /// Bytes from the lowest to the end of the highest `PT_LOAD` segment.
        public var size: UInt64
        /// The GNU build id, lower-case hex; empty when the image has none.
        public var buildID: String
        /// True for the executable.
        public var main: Bool

        /// An image with each of its fields.
        public init(name: String, path: String, base: Address, size: UInt64, buildID: String, main: Bool) {
            self.name = name
            self.path = path
            self.base = base
            self.size = size
            self.buildID = buildID
            self.main = main
        }

        enum CodingKeys: String, CodingKey {
            case name, path, base, size
            case buildID = "build_id"
            case main
        }

        /// The offset of `address` in this image's file (`address - base`), when it lies inside.
        public func offset(of address: Address) -> UInt64? {
            guard address.rawValue >= base.rawValue else { return nil }
            let offset = address.rawValue - base.rawValue
            return offset < size ? offset : nil
        }
    }
}
