// The other checks the Swift runtime and the standard library trap on, beyond those in
// Crashes.swift: in -O code each is a trap instruction that the compiler names
// `Swift runtime failure: REASON` in the debug information (docs/grouping.md), in -Onone code
// most call into the runtime with a message. Each lives in its own non-inlined function.

@inline(never) func crashByUnsignedUnderflow() -> Never {
    var value = opaque(UInt(0))
    value -= opaque(1)
    print(value)
    Swift.fatalError("unreachable")
}

@inline(never) func crashByNarrowingConversion() -> Never {
    print(Int8(opaque(300)))
    Swift.fatalError("unreachable")
}

@inline(never) func crashByFloatConversion() -> Never {
    print(Int(opaque(Double.nan)))
    Swift.fatalError("unreachable")
}

@inline(never) func crashOnSwiftDivisionByZero() -> Never {
    print(opaque(1) / opaque(0))
    Swift.fatalError("unreachable")
}

@inline(never) func crashByInvalidRange() -> Never {
    print(opaque(5)..<opaque(1))
    Swift.fatalError("unreachable")
}

@inline(never) func crashByPrecondition() -> Never {
    precondition(opaque(false), "crash-test precondition on purpose")
    Swift.fatalError("unreachable")
}

/// Holds an object it does not keep alive.
final class UnownedHolder {
    unowned let object: AnyObject
    init(_ object: AnyObject) { self.object = object }
}

final class Placeholder {}

@inline(never) func crashByUnownedReference() -> Never {
    var object: Placeholder? = Placeholder()
    let holder = UnownedHolder(object!)
    object = opaque(nil)
    print(holder.object, object as Any)
    Swift.fatalError("unreachable")
}
