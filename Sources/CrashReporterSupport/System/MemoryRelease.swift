/// Gives memory that the process no longer uses back to the system.
package enum MemoryRelease {
    /// Returns the free pages at the top of the heap and in the allocator's arenas (glibc's
    /// `malloc_trim`): after work that allocated much and freed it all (a delivery pass's
    /// symbolication), so that the service's resident size goes back to what it was. A no-op
    /// where the C library has no such call.
    package static func trimHeap() {
        _ = GNUFunctions.mallocTrim?(0)
    }
}
