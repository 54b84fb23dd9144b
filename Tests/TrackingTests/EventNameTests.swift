import Testing

@testable import Tracking

@Suite("Event names")
struct EventNameTests {
    @Test(
        "valid names",
        arguments: ["a", "order_placed", "Orders.Place", "ns:event-1", String(repeating: "x", count: 64)])
    func valid(_ name: String) {
        #expect(EventName.problem(name) == nil)
        #expect(EventName.isValid(name))
    }

    @Test(
        "invalid names",
        arguments: [
            "", String(repeating: "x", count: 65), "has space", "émoji", "a/b", "$", "a$b", "$bad name", "tab\t",
        ])
    func invalid(_ name: String) {
        #expect(EventName.problem(name) == .invalid)
    }

    @Test(
        "a $ with 1 to 63 name characters is reserved",
        arguments: ["$session_start", "$a", "$" + String(repeating: "y", count: 63)])
    func reserved(_ name: String) {
        #expect(EventName.problem(name) == .reserved)
    }

    @Test("a $ with 64 more characters is too long, not reserved")
    func reservedTooLong() {
        #expect(EventName.problem("$" + String(repeating: "y", count: 64)) == .invalid)
    }

    @Test("the branch-free check of native strings agrees with the byte rule for every byte")
    func everyByte() {
        for byte in UInt8.min...UInt8.max {
            for bytes in [[byte], [UInt8(ascii: "a"), byte, UInt8(ascii: "z")]] {
                let name = String(decoding: bytes, as: UTF8.self)
                let expected = name.utf8.count <= EventName.maxLength && name.utf8.allSatisfy(EventName.isNameByte)
                #expect((EventName.problem(name) == nil) == expected, "byte \(byte)")
            }
        }
    }
}
