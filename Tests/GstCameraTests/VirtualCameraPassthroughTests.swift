// The virtual camera is preloaded into every process of the test run, so everything that is not a
// virtual device must behave exactly as without it.
import Foundation
import Glibc
import Testing
import GstCamera

@Suite struct VirtualCameraPassthroughTests {
    @Test func realFilesReadWriteStatMmapAndDupUnchanged() throws {
        let path = NSTemporaryDirectory() + "vcam-passthrough-\(UUID().uuidString)"
        defer { unlink(path) }
        let fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0o600)
        #expect(fd >= 0)
        defer { close(fd) }
        let text = Array("passthrough".utf8)
        #expect(write(fd, text, text.count) == text.count)
        var st = stat()
        #expect(fstat(fd, &st) == 0 && st.st_size == text.count && (st.st_mode & S_IFMT) == S_IFREG)
        let copy = dup(fd)
        #expect(copy >= 0)
        #expect(lseek(copy, 0, SEEK_SET) == 0)
        var back = [UInt8](repeating: 0, count: text.count)
        #expect(read(copy, &back, back.count) == text.count && back == text)
        #expect(close(copy) == 0)
        let mapped = mmap(nil, text.count, PROT_READ, MAP_SHARED, fd, 0)
        #expect(mapped != MAP_FAILED)
        if let mapped, mapped != MAP_FAILED {
            #expect(Array(UnsafeRawBufferPointer(start: mapped, count: text.count)) == text)
            #expect(munmap(mapped, text.count) == 0)
        }
    }

    @Test func realDevicesAndIoctlsUnchanged() throws {
        var st = stat()
        #expect(stat("/dev/null", &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR)
        #expect(st.st_rdev == (1 << 8 | 3), "/dev/null is 1:3")
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(write(fds[1], "abc", 3) == 3)
        var pending: Int32 = 0
        #expect(ioctl(fds[0], UInt(FIONREAD), &pending) == 0 && pending == 3)
        let listing = try FileManager.default.contentsOfDirectory(atPath: "/dev")
        #expect(listing.contains("null"), "real /dev entries must still be listed")
        #expect(listing.contains("video0"), "virtual nodes are appended to the /dev listing")
        #expect(listing.filter { $0 == "video0" }.count == 1)
    }
}
