import Glibc
import CameraErrors
import LinuxSystem

/// Which other processes have a device open, found the way fuser(1) does, so a "busy" error can name them:
/// - a /proc/PID/fd link naming the device, or leading to the same node by another name (a /dev/v4l/by-id
///   link, a second node with the same device number, a path in another mount namespace: compared by stat);
/// - a /proc/PID/maps line naming the device: a process that closed its descriptor but still maps the
///   camera's buffers keeps the device busy;
/// - the virtual camera's owner record (`VirtualCameraOwner`), whose descriptors are sockets, not the node.
/// Processes of other users are visible only to root, so the answer may be incomplete.
public enum DeviceHolders {
    struct Holder: Equatable {
        let pid: Int32
        let command: String
    }

    /// What a device (or file) is, independent of the name it is reached by.
    private struct Identity: Equatable {
        let names: Set<String>
        let device: dev_t
        let inode: ino_t
        let characterDevice: dev_t?

        init?(_ path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            var names: Set = [path]
            if let resolved = realpath(path, nil) {
                names.insert(String(cString: resolved))
                free(resolved)
            }
            self.names = names
            device = info.st_dev
            inode = info.st_ino
            characterDevice = info.st_mode & S_IFMT == S_IFCHR ? info.st_rdev : nil
        }

        func matches(_ info: stat) -> Bool {
            if let characterDevice { return info.st_mode & S_IFMT == S_IFCHR && info.st_rdev == characterDevice }
            return info.st_dev == device && info.st_ino == inode
        }
    }

    static func processes(holding path: String) -> [Holder] {
        guard let identity = Identity(path) else { return [] }
        let me = getpid()
        var pids = Set(processIDs().filter { $0 != me && holds(pid: $0, identity) })
        if let owner = VirtualCameraOwner.pid(of: path), owner != me { pids.insert(owner) }
        return pids.sorted().map { Holder(pid: $0, command: command(of: $0)) }
    }

    /// "PID 1234 (cheese)", or several joined with "and"; nil when none is visible.
    public static func describe(holding path: String) -> String? {
        let holders = processes(holding: path)
        guard !holders.isEmpty else { return nil }
        return holders.map { "PID \($0.pid) (\($0.command))" }.joined(separator: " and ")
    }

    private static func processIDs() -> [Int32] {
        ((try? SystemCalls.directoryEntries("/proc")) ?? []).compactMap { Int32($0) }
    }

    private static func holds(pid: Int32, _ identity: Identity) -> Bool {
        let folder = "/proc/\(pid)/fd"
        for name in (try? SystemCalls.directoryEntries(folder)) ?? [] {
            guard let target = try? SystemCalls.readLink(folder + "/" + name) else { continue }
            if identity.names.contains(target) { return true }
            // Sockets, pipes and anonymous inodes ("socket:[…]") cannot be the device; anything with a path is
            // compared by what it is, through the link (stat follows it to the open file itself).
            if target.hasPrefix("/"), let info = try? SystemCalls.status(folder + "/" + name), identity.matches(info) { return true }
        }
        return mapsDevice(pid: pid, identity)
    }

    /// Whether /proc/PID/maps has a mapping of the device (the pathname is the line's last field).
    private static func mapsDevice(pid: Int32, _ identity: Identity) -> Bool {
        guard let file = fopen("/proc/\(pid)/maps", "r") else { return false }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 4096)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard let slash = line.firstIndex(of: "/") else { continue }
            var mapped = String(line[slash...])
            while mapped.last == "\n" { mapped.removeLast() }
            if identity.names.contains(mapped) { return true }
        }
        return false
    }

    private static func command(of pid: Int32) -> String {
        DirectoryListing.firstLine(of: "/proc/\(pid)/comm") ?? "?"
    }
}

/// The project's virtual camera (docs/virtual-camera.md) records which process streams each device in
/// `$VCAM_STATE_DIR/<name>/owner` (default state dir /dev/shm/vcam-UID): its descriptors are sockets, so
/// /proc/PID/fd cannot show them. Read only when such a record exists and its process is alive.
enum VirtualCameraOwner {
    static func pid(of path: String) -> Int32? {
        let root = getenv("VCAM_STATE_DIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/dev/shm/vcam-\(getuid())"
        let record = root + "/" + FilePath.lastComponent(of: path) + "/owner"
        guard let file = try? FileDescriptor.open(record, O_RDONLY) else { return nil }
        let text = String(decoding: (try? file.read(count: 32, at: 0)) ?? [], as: UTF8.self)
        guard let pid = Int32(text.filter(\.isNumber)), pid > 0, kill(pid, 0) == 0 || errno == EPERM else { return nil }
        return pid
    }
}
