import CrashReporterSupport

/// What an OTLP receiver says in a successful answer (`ExportLogsServiceResponse`): the
/// `partial_success` it may fill in, with how many log records it rejected and why. An empty
/// answer, or one without the field, means every record was accepted.
package struct OTLPPartialSuccess: Sendable, Equatable {
    package var rejectedLogRecords: Int64
    package var errorMessage: String

    package init(rejectedLogRecords: Int64 = 0, errorMessage: String = "") {
        self.rejectedLogRecords = rejectedLogRecords
        self.errorMessage = errorMessage
    }

    /// Neither a rejection nor a message: all was accepted.
    package var isEmpty: Bool { rejectedLogRecords == 0 && errorMessage.isEmpty }

    /// The partial success in a protobuf answer (`partial_success` 1: `rejected_log_records` 1,
    /// `error_message` 2). Unknown fields are skipped.
    package init(protobuf body: [UInt8]) throws(ProtobufError) {
        self.init()
        var response = ProtobufReader(body)
        while let (field, value) = try response.next() {
            guard field == 1, case .lengthDelimited(let nested) = value else { continue }
            var partial = ProtobufReader(nested)
            while let (field, value) = try partial.next() {
                if field == 1, let count = value.integer { rejectedLogRecords = count }
                if field == 2, let text = value.string { errorMessage = text }
            }
        }
    }

    /// The partial success in an OTLP/JSON answer: `partialSuccess.rejectedLogRecords` (a
    /// string or a number) and `errorMessage`. Unknown members are skipped.
    package init(json body: [UInt8]) throws(JSONParseError) {
        self.init()
        guard !body.isEmpty, let partial = try JSON.parse(body)["partialSuccess"] else { return }
        switch partial["rejectedLogRecords"] {
        case .string(let text)?: rejectedLogRecords = Int64(text) ?? 0
        case .number(let number)?: rejectedLogRecords = number.exactly(Int64.self) ?? 0
        default: break
        }
        errorMessage = partial["errorMessage"]?.stringValue ?? ""
    }
}
