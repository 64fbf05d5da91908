import Glibc

/// Which other processes have a device open, found the way fuser(1) does: every /proc/PID/fd link that points
/// at the path. Processes of other users are visible only to root, so the answer may be incomplete.
enum DeviceHolders {
    struct Holder: Equatable {
        let pid: Int32
        let command: String
    }

    static func processes(holding path: String) -> [Holder] {
        guard let proc = opendir("/proc") else { return [] }
        defer { closedir(proc) }
        let me = getpid()
        var holders: [Holder] = []
        while let entry = readdir(proc) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = Int32(name), pid != me, holds(pid: pid, path) else { continue }
            holders.append(Holder(pid: pid, command: command(of: pid)))
        }
        return holders.sorted { $0.pid < $1.pid }
    }

    /// "PID 1234 (cheese)", or several joined with "and"; nil when none is visible.
    static func describe(holding path: String) -> String? {
        let holders = processes(holding: path)
        guard !holders.isEmpty else { return nil }
        return holders.map { "PID \($0.pid) (\($0.command))" }.joined(separator: " and ")
    }

    private static func holds(pid: Int32, _ path: String) -> Bool {
        guard let fds = opendir("/proc/\(pid)/fd") else { return false }
        defer { closedir(fds) }
        var buffer = [CChar](repeating: 0, count: 4096)
        while let entry = readdir(fds) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard Int(name) != nil else { continue }
            let count = readlink("/proc/\(pid)/fd/\(name)", &buffer, buffer.count - 1)
            guard count > 0 else { continue }
            if String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) == path { return true }
        }
        return false
    }

    private static func command(of pid: Int32) -> String {
        guard let file = fopen("/proc/\(pid)/comm", "r") else { return "?" }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return "?" }
        return String(cString: buffer).trimmingCharacters(in: "\n")
    }
}

private extension String {
    func trimmingCharacters(in characters: Character) -> String {
        var text = self
        while text.last == characters { text.removeLast() }
        return text
    }
}
