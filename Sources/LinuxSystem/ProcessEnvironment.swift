import Glibc

/// The process's environment variables, read from `environ`: what ProcessInfo.environment gives, without
/// FoundationEssentials' process-information code on the way to a preview (docs/benchmarks.md).
public enum ProcessEnvironment {
    /// Every variable, name to value; of a name given twice, the first (as getenv(3) finds it).
    public static func current() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "="), variables[String(text[..<equals])] == nil {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return variables
    }
}
