import Foundation
import Glibc
import Testing
@testable import V4L2

/// A busy camera's holder is named even when its descriptor is not a plain link to the path asked about, and
/// our own camera screen is named as such with what to do (issue 16).
@Suite(.serialized) struct DeviceHolderNamingTests {
    /// A process running `script` (sh), once it has become `sleep` (its holds are in place by then).
    private func holder(_ script: String, ready: String? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        try process.run()
        for _ in 0..<100 {
            if let ready {
                if FileManager.default.fileExists(atPath: ready) { break }
            } else if ((try? String(contentsOfFile: "/proc/\(process.processIdentifier)/comm", encoding: .utf8)) ?? "").hasPrefix("sleep") {
                break
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return process
    }

    private func holderPIDs(_ path: String) -> [Int32] { DeviceHolders.processes(holding: path).map(\.pid) }

    @Test func aDescriptorOnAnotherNameOfTheSameFileOrDeviceCounts() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A hard link: the holder's fd link names the other name.
        let file = folder + "/device", other = folder + "/same-inode"
        _ = FileManager.default.createFile(atPath: file, contents: Data())
        #expect(link(file, other) == 0)
        let byLink = try holder("exec 3<'\(other)'; exec sleep 30")
        defer { killAndWait(byLink) }
        #expect(holderPIDs(file) == [byLink.processIdentifier])
        // A second node with the same device number (as a container or a udev rule makes them).
        guard getuid() == 0 else { return }
        let first = folder + "/full-a", second = folder + "/full-b"
        #expect(mknod(first, S_IFCHR | 0o666, dev_t((1 << 8) | 7)) == 0 && mknod(second, S_IFCHR | 0o666, dev_t((1 << 8) | 7)) == 0)
        let byNode = try holder("exec 3>'\(second)'; exec sleep 30")
        defer { killAndWait(byNode) }
        #expect(holderPIDs(first).contains(byNode.processIdentifier))
    }

    @Test func aMappingWithoutADescriptorCounts() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/buffers"
        _ = FileManager.default.createFile(atPath: file, contents: Data(count: 4096))
        // Maps the file, closes the descriptor, keeps the mapping (as a V4L2 program's mmap'd buffers do). Through
        // libc: Python's mmap module keeps a duplicate descriptor of its own.
        let script = "import ctypes,os,time; c=ctypes.CDLL(None); c.mmap.restype=ctypes.c_void_p; "
            + "c.mmap.argtypes=[ctypes.c_void_p,ctypes.c_size_t,ctypes.c_int,ctypes.c_int,ctypes.c_int,ctypes.c_long]; "
            + "fd=os.open('\(file)',os.O_RDWR); p=c.mmap(None,4096,3,1,fd,0); os.close(fd); "
            + "open('\(folder)/ready','w').close(); time.sleep(30)"
        let mapper = try holder("exec python3 -c \"\(script)\"", ready: folder + "/ready")
        defer { killAndWait(mapper) }
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(mapper.processIdentifier)/fd")) ?? []
        #expect(!fds.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(mapper.processIdentifier)/fd/\($0)")) == file })
        #expect(holderPIDs(file) == [mapper.processIdentifier])
    }

    /// An environment of its own: cameras, virtual camera state and runtime folder no other test shares.
    private func privateEnvironment(_ folder: String) throws -> [String: String] {
        for sub in ["vcam", "run", "photos"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        var environment = ProcessInfo.processInfo.environment
        environment["VCAM_DEVICES"] = "/dev/video0=uvc"
        environment["VCAM_STATE_DIR"] = folder + "/vcam"
        environment["XDG_RUNTIME_DIR"] = folder + "/run"
        environment["GSTCAM_PHOTO_DIR"] = folder + "/photos"
        return environment
    }

    @Test func aVirtualCameraStreamedByAnotherProgramNamesIt() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment = try privateEnvironment(folder)
        let burst = try BackgroundGstcam(["capture", "--device", "/dev/video0", "--count", "0", "--interval", "1", "--dir", folder + "/photos"],
                                         environment: environment)
        defer { killAndWait(burst.process) }
        #expect(burst.wait(10) { burst.output.contains("Saved") }, "\(burst.errors)")
        let capture = try runProcess(gstcamBinary, ["capture", "--device", "/dev/video0", "-o", folder + "/one.jpg"], environment: environment)
        #expect(capture.status == 1)
        #expect(capture.error.hasSuffix("gstcam: /dev/video0 is in use by PID \(burst.process.processIdentifier) (gstcam). Close that program and try again.\n"),
                "\(capture.error)")
    }

    @Test func theCameraScreenIsNamedForWhatItCannotServe() throws {
        let preview = try ScreenProcess(["preview", "--sink", "none", "--duration", "20", "--device", "/dev/video0"])
        defer { preview.remove() }
        #expect(preview.wait { FileManager.default.fileExists(atPath: preview.runtime + "/gstcam-video0.sock") }, "no socket: \(preview.errors)")
        let pid = preview.process.processIdentifier
        let expected = "gstcam: our own camera screen (gstcam preview, PID \(pid)) holds /dev/video0; quit it (q or Esc in its window, or "
            + "kill \(pid)), or take photos through it: `gstcam capture` without --count is served by the screen (-o, --dir, --format, "
            + "--flash, -o - too); a burst (--count) needs the camera itself.\n"
        let capture = try runProcess(gstcamBinary, ["capture", "--device", "/dev/video0", "--count", "2", "--dir", preview.folder],
                                     environment: preview.environment())
        #expect(capture.status == 1)
        #expect(capture.error.hasSuffix(expected), "\(capture.error)")  // after the Mode line
        // The plain capture the message recommends works.
        let plain = try runProcess(gstcamBinary, ["capture", "--device", "/dev/video0"], environment: preview.environment())
        #expect(plain.status == 0 && plain.output.hasSuffix("through the running preview\n"), "\(plain.error)")
    }
}
