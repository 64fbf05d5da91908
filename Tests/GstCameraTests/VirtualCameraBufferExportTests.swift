// What a vb2 driver does with its buffers beyond MMAP, seen on vivid: VIDIOC_EXPBUF hands a buffer out as a file
// of its own (a dma-buf), so v4l2src runs in its dmabuf I/O mode and maps a buffer only while an element reads
// it; and the frames the driver fills are no memory of the process until the process maps and reads them. Runs
// in this process (libVirtualCamera.so preloaded by scripts/test) on the fault device, serialized with its users.
import CGStreamer
import Foundation
import Glibc
import Testing

extension FaultDeviceTests {
    @Suite(.serialized) struct VirtualCameraBufferExportTests {
        let device = VirtualCameraFixture.faultDevice

        @Test func anExportedBufferHoldsTheFramesAndOutlivesTheQueueAndTheDevice() throws {
            var exported: [(fd: Int32, pixels: UnsafeRawPointer)] = []
            let frame: CapturedFrame
            let length = 640 * 480 * 2
            do {
                let client = try V4L2TestClient(device.path)
                try client.setFormat(width: 640, height: 480)
                #expect(client.exportErrno(0) == EINVAL, "no buffers yet: vb2 says EINVAL (v4l2src's probe expects it)")
                try client.startStreaming(buffers: 2)
                #expect(client.exportErrno(2) == EINVAL, "there is no buffer 2")
                #expect(client.exportErrno(0, flags: O_CLOEXEC | O_RDWR | O_APPEND) == EINVAL, "only O_CLOEXEC and the access mode")
                for index: UInt32 in 0..<2 {
                    let fd = try client.exportBuffer(index).get()
                    #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0, "O_CLOEXEC was asked for")
                    let address = try #require(mmap(nil, length, PROT_READ, MAP_SHARED, fd, 0))
                    try #require(address != MAP_FAILED, "the exported buffer \(index) cannot be mapped: errno \(errno)")
                    exported.append((fd, UnsafeRawPointer(address)))
                }
                var sync = UInt64(dmaBufSyncStart | dmaBufSyncRead)
                #expect(Glibc.ioctl(exported[0].fd, dmaBufIoctlSync, &sync) == 0, "DMA_BUF_IOCTL_SYNC: errno \(errno)")
                sync = UInt64(dmaBufSyncEnd | dmaBufSyncRead)
                #expect(Glibc.ioctl(exported[0].fd, dmaBufIoctlSync, &sync) == 0, "DMA_BUF_IOCTL_SYNC: errno \(errno)")
                frame = try client.nextFrame()
                try client.stopStreaming()   // unmaps the node's mappings, REQBUFS(0)
            }   // and the device is closed
            defer { for buffer in exported { munmap(UnsafeMutableRawPointer(mutating: buffer.pixels), length); close(buffer.fd) } }
            let holders = exported.filter { memcmp($0.pixels, frame.bytes, length) == 0 }
            #expect(holders.count == 1, "one exported buffer holds the frame dequeued, after the queue and the device are gone")
            let reader = VirtualFrameReader(bytes: frame.bytes, width: 640, height: 480, layout: .yuyv)
            #expect(reader.luma(320, 240) > 0, "the frame has a picture")
        }

        @Test func aDriverWithoutExportSaysSo() throws {
            let client = try V4L2TestClient("/dev/video4")   // export=no (scripts/virtual-camera-env)
            try client.setFormat(width: 320, height: 240)
            #expect(client.requestBuffers(2) == 0)
            #expect(client.exportErrno(0) == ENOTTY)
            #expect(client.requestBuffers(0) == 0)
        }

        /// A kernel driver fills buffers through its own mapping: frames no one reads cost the process nothing, and
        /// a frame costs its pages once the process reads it through its mapping.
        @Test func framesTheDriverFillsAreNoMemoryOfTheProcessUntilItReadsThem() throws {
            let buffer = 1280 * 720 * 2 / 1024
            let before = residentBufferKiB()
            let client = try V4L2TestClient(device.path)
            try client.setFormat(width: 1280, height: 720)
            try client.startStreaming(buffers: 4)
            for _ in 0..<8 { try client.skipFrame() }
            let unread = residentBufferKiB() - before
            _ = try client.nextFrame()
            let read = residentBufferKiB() - before
            try client.streamOff()
            let stopped = residentBufferKiB() - before
            try client.stopStreaming()
            #expect(unread == 0, "8 frames into 4 buffers, none read: \(unread) KiB resident (a buffer is \(buffer) KiB)")
            #expect(stopped >= buffer && stopped < 2 * buffer, "one frame read: \(stopped) KiB resident once streaming stopped")
            #expect(read >= buffer, "one frame read: \(read) KiB resident")
        }

        /// A kernel driver keeps its test pattern in kernel memory (vivid: vmalloc): the process that streams pays
        /// for no frame-sized memory of the driver's, in YUYV and NV12 alike (before, 3.1 MiB of the process's
        /// heap held the virtual camera's drawing at 1280x720, in every process the tests and the benchmark ran).
        @Test(arguments: [("YUYV", gstcam_fourcc_yuyv()), ("NV12", gstcam_fourcc_nv12())])
        func theDriversDrawingIsNoMemoryOfTheProcess(format: String, fourcc: UInt32) throws {
            let client = try V4L2TestClient(device.path)
            try client.setFormat(width: 1280, height: 720, fourcc: fourcc)
            let before = anonymousKiB()
            try client.startStreaming(buffers: 4)
            for _ in 0..<4 { try client.skipFrame() }
            let streaming = anonymousKiB() - before
            try client.stopStreaming()
            #expect(streaming < 1024, "\(format) 1280x720: the process's anonymous memory grew by \(streaming) KiB while the camera drew 4 frames")
        }
    }
}

/// The process's anonymous resident KiB (RssAnon in /proc/self/status).
private func anonymousKiB() -> Int {
    procLines("/proc/self/status").first { $0.hasPrefix("RssAnon:") }
        .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true)[1]) } ?? -1
}

/// A /proc file's lines, read line by line: its size is 0, which whole-file readers take at its word.
private func procLines(_ path: String) -> [String] {
    guard let file = fopen(path, "r") else { return [] }
    defer { fclose(file) }
    var lines: [String] = []
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(line) }
    while getline(&line, &capacity, file) > 0, let line { lines.append(String(cString: line)) }
    return lines
}

private let dmaBufIoctlSync: UInt = 0x4008_6200   // _IOW('b', 0, struct dma_buf_sync), <linux/dma-buf.h>
private let dmaBufSyncRead: Int32 = 1
private let dmaBufSyncStart: Int32 = 0
private let dmaBufSyncEnd: Int32 = 4

extension V4L2TestClient {
    func exportErrno(_ index: UInt32, flags: Int32 = O_CLOEXEC | O_RDWR) -> Int32 {
        switch exportBuffer(index, flags: flags) {
        case let .success(fd): close(fd); return 0
        case let .failure(.call(_, code)): return code
        case .failure: return -1
        }
    }
}

/// The resident KiB of every mapping of a virtual camera buffer in this process (its /proc/self/smaps).
private func residentBufferKiB() -> Int {
    var total = 0, inBuffer = false
    for text in procLines("/proc/self/smaps") {
        let first = text.prefix { $0 != " " }
        if first.contains("-"), first.allSatisfy({ $0.isHexDigit || $0 == "-" }) {   // a mapping's first line
            inBuffer = text.contains("memfd:vcam-buffer")
        } else if inBuffer, text.hasPrefix("Rss:") {
            total += Int(text.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
        }
    }
    return total
}
