/// What a `SIGFPE` says went wrong, by its code: the reason a crash signature and its title
/// carry for a C (or assembly) division by zero, where no Swift runtime failure names it.
package enum ArithmeticFault {
    /// `Integer division by zero` for `FPE_INTDIV`, and so on; nil for another signal or code.
    package static func reason(_ signal: CrashReport.Signal) -> String? {
        guard signal.name == "SIGFPE" else { return nil }
        switch signal.codeName {
        case "FPE_INTDIV": return "Integer division by zero"
        case "FPE_INTOVF": return "Integer overflow"
        case "FPE_FLTDIV": return "Floating-point division by zero"
        case "FPE_FLTOVF": return "Floating-point overflow"
        case "FPE_FLTUND": return "Floating-point underflow"
        case "FPE_FLTRES": return "Floating-point inexact result"
        case "FPE_FLTINV": return "Invalid floating-point operation"
        case "FPE_FLTSUB": return "Subscript out of range"
        default: return nil
        }
    }
}
