import CrashReportFormat

/// `crashreport import`'s reader of log text (`LoggedReports`): any bytes are a log to search.
///
/// Properties: nothing crashes; each report is named once, by a 36-character id; a whole report's
/// bytes fit the reader's size limit; an incomplete report names missing lines within its count.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLoggedReports(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    let reports = LoggedReports.find(in: bytes)
    precondition(Set(reports.map(\.id)).count == reports.count, "a report named twice")
    for report in reports {
        precondition(report.id.utf8.count == 36, "an id that is not 36 characters")
        switch report.state {
        case .whole(let gzip):
            precondition(!gzip.isEmpty && gzip.count <= ReportDecoding.sizeLimit + LoggedReportLine.partBytes)
            _ = try? ReportDecoding.decode(gzipData: gzip)
        case .incomplete(let missing, let count):
            precondition(
                !missing.isEmpty && missing.allSatisfy { (1...count).contains($0) }, "missing lines out of range")
        case .damaged(let reason):
            precondition(!reason.isEmpty, "damaged without a reason")
        }
    }
    return 0
}
