extension CrashReport {
    /// One frame of the crashing thread's stack.
    public struct Frame: Codable, Sendable, Equatable {
        /// How the frame was found, which says what `ip` means.
        public enum Trust: String, Codable, Sendable {
            /// Taken from the signal's context: `ip` is the faulting instruction itself.
            case context
            /// Recovered with DWARF call-frame information: `ip` is a return address.
            case cfi
            /// A resume point read from a Swift async context (``CrashReport/CapturedThread/asyncFrames``):
            /// `ip` is the entry of the function that runs when the awaited call returns, not a
            /// return address, and `sp` is the context's address.
            case async
        }

        /// The instruction pointer (see ``Trust``).
        public var ip: Address
        /// The stack pointer (canonical frame address) of the frame.
        public var sp: Address
        /// How the frame was found.
        public var trust: Trust
        /// Index into ``CrashReport/images``, or `-1` when no image contains `ip`.
        public var image: Int

        /// A frame with each of its fields.
        public init(ip: Address, sp: Address, trust: Trust, image: Int) {
            self.ip = ip
            self.sp = sp
            self.trust = trust
            self.image = image
        }

        /// ``image`` as an optional: `nil` for `-1`.
        public var imageIndex: Int? { image >= 0 ? image : nil }

        /// The address to look up when symbolicating: a return address (`cfi`) points just
        /// after the call, so it is moved back by one to land inside the call instruction; a
        /// faulting instruction (`context`) and a resume function's entry (`async`) are looked up
        /// as they are.
        public var lookupAddress: Address {
            trust == .cfi && ip.rawValue > 0 ? Address(ip.rawValue - 1) : ip
        }
    }
}
