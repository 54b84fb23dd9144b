import Testing

@testable import CrashSymbolication

@Suite("Async function names")
struct AsyncFunctionNameTests {
    @Test(
        "a partial function is named by the function it belongs to",
        arguments: [
            ("(1) await resume partial function for level2()", "level2()"),
            ("(12) suspend resume partial function for Orders.place(_:) async throws", "Orders.place(_:) async throws"),
            ("resume partial function for level1()", "level1()"),
            (
                "(1) await resume partial function for closure #1 () async -> Swift.Never in crashInTask()",
                "closure #1 () async -> Swift.Never in crashInTask()"
            ),
        ])
    func owner(name: String, expected: String) {
        #expect(AsyncFunctionName.owner(of: name) == expected)
    }

    @Test(
        "any other name stays as it is",
        arguments: [
            "level2()", "(1) level2()", "(x) await resume partial function for f()",
            "await resume partial function for ",
            "closure #1 in (1) await resume partial function for f()", "",
        ])
    func unchanged(name: String) {
        #expect(AsyncFunctionName.owner(of: name) == name)
    }
}
