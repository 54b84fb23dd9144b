import Glibc

/// glibc functions that the Glibc module does not import (they are declared only under
/// `_GNU_SOURCE`, which a Swift target cannot set), looked up once by name in the C library.
/// `nil` when this C library lacks one; callers then take their fallback.
enum GNUFunctions {
    /// `ssize_t getrandom(void *buffer, size_t length, unsigned int flags)`.
    typealias GetRandom = @convention(c) (UnsafeMutableRawPointer?, Int, UInt32) -> Int
    /// `int pthread_setname_np(pthread_t thread, const char *name)`.
    typealias SetThreadName = @convention(c) (pthread_t, UnsafePointer<CChar>?) -> Int32
    /// `int malloc_trim(size_t pad)`.
    typealias MallocTrim = @convention(c) (Int) -> Int32

    static let getRandom: GetRandom? = lookUp("getrandom")
    static let setThreadName: SetThreadName? = lookUp("pthread_setname_np")
    static let mallocTrim: MallocTrim? = lookUp("malloc_trim")

    private static func lookUp<Function>(_ name: String) -> Function? {
        // A null handle is RTLD_DEFAULT: the symbol as the program's own code would see it.
        guard let symbol = dlsym(nil, name) else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
    }
}
