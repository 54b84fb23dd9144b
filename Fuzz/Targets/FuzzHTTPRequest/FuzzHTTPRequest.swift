import CrashCollectorParsers

/// The collector's HTTP/1.1 request parser, fed the input whole and again in pieces (the first
/// byte picks the piece size, as reads from a socket would split it).
///
/// Properties: nothing crashes; both feedings give the same requests and fail (or not) with the
/// same status, since the parser is incremental and how bytes arrive must not matter; no
/// request's body passes the body limit.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard size > 0, let data else { return 0 }
    let piece = Int(data[0] % 16) + 1
    let input = UnsafeBufferPointer(start: data + 1, count: size - 1)
    let limits = HTTPLimits(maxBodyBytes: { head in head.method == "PUT" ? 64 : 4096 })

    var whole = Feeding(parser: HTTPRequestParser(limits: limits))
    whole.feed(input[...], limits: limits)

    var split = Feeding(parser: HTTPRequestParser(limits: limits))
    var offset = 0
    while offset < input.count && split.failure == nil {
        let end = min(input.count, offset + piece)
        split.feed(input[offset..<end], limits: limits)
        offset = end
    }
    precondition(whole.requests == split.requests, "whole and split feedings read different requests")
    precondition(
        whole.failure?.status == split.failure?.status,
        "whole and split feedings end differently: \(String(describing: whole.failure)) / \(String(describing: split.failure))"
    )
    return 0
}

/// A parser and what it has given so far.
private struct Feeding {
    var parser: HTTPRequestParser
    var requests: [ReceivedRequest] = []
    var failure: HTTPParseError?

    /// Appends the bytes and takes requests until the parser needs more or fails.
    mutating func feed(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, limits: HTTPLimits) {
        parser.append(bytes)
        while failure == nil {
            switch parser.next() {
            case .request(let request):
                precondition(request.body.count <= limits.maxBodyBytes(request.head), "a body passed its limit")
                requests.append(request)
            case .failure(let error):
                failure = error
            case .incomplete:
                return
            }
        }
    }
}
