// Test support for the virtual camera: the test devices scripts/test configures, a subprocess
// runner, a minimal in-process V4L2 capture client (plain libc calls, so the assertions are about
// what any V4L2 program sees), and decoders for the frame layout of docs/virtual-camera.md.
import CGStreamer
import Foundation
import Glibc
import GstCamera

/// One of the virtual devices exported by scripts/test in VCAM_DEVICES.
struct VirtualTestDevice: Sendable, CustomStringConvertible {
    let path: String
    let card: String
    let identity: (red: Int, green: Int, blue: Int)
    var name: String { String(path.split(separator: "/").last ?? "") }
    var description: String { path }
}

enum VirtualCameraFixture {
    static let devices: [VirtualTestDevice] = [
        VirtualTestDevice(path: "/dev/video0", card: "Virtual UVC Camera (video0)", identity: (0xe6, 0x1e, 0x1e)),
        VirtualTestDevice(path: "/dev/video2", card: "Virtual Sensor Camera (video2)", identity: (0x1e, 0xc8, 0x1e)),
        VirtualTestDevice(path: "/dev/video4", card: "Virtual Basic Webcam (video4)", identity: (0x1e, 0x3c, 0xe6)),
        VirtualTestDevice(path: "/dev/video6", card: "Virtual Test Camera", identity: (0xe6, 0xc8, 0x1e)),
    ]
    /// Reserved for the virtual camera's own in-process and fault tests (see scripts/test).
    static let faultDevice = devices[3]

    static var stateDirectory: String {
        ProcessInfo.processInfo.environment["VCAM_STATE_DIR"] ?? "/dev/shm/vcam-\(getuid())"
    }

    static func faultFile(_ name: String, of device: VirtualTestDevice) -> String {
        "\(stateDirectory)/\(device.name)/\(name)"
    }

    /// Creates a fault file (optionally with content), as `echo content > file` would.
    static func inject(_ name: String, _ content: String = "", into device: VirtualTestDevice) throws {
        try content.write(toFile: faultFile(name, of: device), atomically: false, encoding: .utf8)
    }

    static func clear(_ name: String, of device: VirtualTestDevice) {
        try? FileManager.default.removeItem(atPath: faultFile(name, of: device))
    }

    /// A fresh state directory, so a subprocess's controls and queue ownership are its own.
    static func privateStateDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "vcam-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

struct ToolResult {
    let status: Int32
    let output: String
    let errorOutput: String
    var combined: String { output + errorOutput }
}

enum VirtualCameraTestError: Error, CustomStringConvertible {
    case call(String, Int32)
    case timeout(String)
    var description: String {
        switch self {
        case .call(let what, let code): "\(what) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .timeout(let what): "timed out waiting for \(what)"
        }
    }
}

/// Runs a tool found on PATH with this process's environment (LD_PRELOAD, VCAM_DEVICES) plus `environment`.
func runTool(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ToolResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [tool] + arguments
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let outPath = NSTemporaryDirectory() + "vcam-out-\(UUID().uuidString)"
    let errPath = outPath + ".err"
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    defer {
        try? FileManager.default.removeItem(atPath: outPath)
        try? FileManager.default.removeItem(atPath: errPath)
    }
    let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    process.standardOutput = out
    process.standardError = err
    try process.run()
    process.waitUntilExit()
    try out.close()
    try err.close()
    let output = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
    let errorOutput = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
    return ToolResult(status: process.terminationStatus, output: output, errorOutput: errorOutput)
}

struct CapturedFrame {
    let bytes: [UInt8]
    let width: Int
    let height: Int
    let sequence: UInt32
    let timestampNanoseconds: UInt64
}

func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// A V4L2 MMAP capture client on plain open/ioctl/mmap/poll.
final class V4L2TestClient {
    let path: String
    let fd: Int32
    private var mappings: [(address: UnsafeMutableRawPointer, length: Int)] = []
    private(set) var width = 0
    private(set) var height = 0

    init(_ path: String, flags: Int32 = O_RDWR) throws {
        self.path = path
        fd = open(path, flags)
        if fd < 0 { throw VirtualCameraTestError.call("open \(path)", errno) }
    }

    deinit {
        unmapAll()
        close(fd)
    }

    /// Performs one ioctl; returns 0 or the errno it failed with.
    func ioctlErrno<T>(_ request: UInt, _ value: inout T) -> Int32 {
        let result = withUnsafeMutablePointer(to: &value) { Glibc.ioctl(fd, request, UnsafeMutableRawPointer($0)) }
        return result < 0 ? errno : 0
    }

    func check<T>(_ name: String, _ request: UInt, _ value: inout T) throws {
        let code = ioctlErrno(request, &value)
        if code != 0 { throw VirtualCameraTestError.call("\(name) on \(path)", code) }
    }

    func setFormat(width: Int, height: Int, fourcc: UInt32 = gstcam_fourcc_yuyv()) throws {
        var format = v4l2_format()
        format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        format.fmt.pix.width = UInt32(width)
        format.fmt.pix.height = UInt32(height)
        format.fmt.pix.pixelformat = fourcc
        try check("VIDIOC_S_FMT", gstcam_vidioc_s_fmt(), &format)
        self.width = Int(format.fmt.pix.width)
        self.height = Int(format.fmt.pix.height)
    }

    /// Returns 0 or the errno of REQBUFS.
    func requestBuffers(_ count: UInt32) -> Int32 {
        var request = v4l2_requestbuffers()
        request.count = count
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        return ioctlErrno(gstcam_vidioc_reqbufs(), &request)
    }

    func startStreaming(buffers count: UInt32 = 4) throws {
        let code = requestBuffers(count)
        if code != 0 { throw VirtualCameraTestError.call("VIDIOC_REQBUFS on \(path)", code) }
        for index in 0..<count {
            var buffer = v4l2_buffer()
            buffer.index = index
            buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            buffer.memory = V4L2_MEMORY_MMAP.rawValue
            try check("VIDIOC_QUERYBUF", gstcam_vidioc_querybuf(), &buffer)
            let address = mmap(nil, Int(buffer.length), PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(buffer.m.offset))
            guard let address, address != MAP_FAILED else { throw VirtualCameraTestError.call("mmap of \(path)", errno) }
            mappings.append((address, Int(buffer.length)))
            try check("VIDIOC_QBUF", gstcam_vidioc_qbuf(), &buffer)
        }
        var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        try check("VIDIOC_STREAMON", gstcam_vidioc_streamon(), &type)
    }

    /// Waits for POLLIN (up to `timeout` ms) and dequeues one frame, giving the buffer back.
    func nextFrame(timeout: Int32 = 2000) throws -> CapturedFrame {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pfd, 1, timeout)
        if ready == 0 { throw VirtualCameraTestError.timeout("a frame from \(path)") }
        if ready < 0 { throw VirtualCameraTestError.call("poll on \(path)", errno) }
        var buffer = v4l2_buffer()
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        try check("VIDIOC_DQBUF", gstcam_vidioc_dqbuf(), &buffer)
        let mapping = mappings[Int(buffer.index)]
        let bytes = [UInt8](UnsafeRawBufferPointer(start: mapping.address, count: Int(buffer.bytesused)))
        let timestamp = UInt64(buffer.timestamp.tv_sec) * 1_000_000_000 + UInt64(buffer.timestamp.tv_usec) * 1000
        let frame = CapturedFrame(bytes: bytes, width: width, height: height, sequence: buffer.sequence,
                                  timestampNanoseconds: timestamp)
        try check("VIDIOC_QBUF", gstcam_vidioc_qbuf(), &buffer)
        return frame
    }

    /// Waits for a frame and gives its buffer straight back without reading it.
    func skipFrame(timeout: Int32 = 2000) throws {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, timeout) == 1 else { throw VirtualCameraTestError.timeout("a frame from \(path)") }
        var buffer = v4l2_buffer()
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        try check("VIDIOC_DQBUF", gstcam_vidioc_dqbuf(), &buffer)
        try check("VIDIOC_QBUF", gstcam_vidioc_qbuf(), &buffer)
    }

    /// STREAMOFF alone: the buffers stay allocated and mapped.
    func streamOff() throws {
        var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        try check("VIDIOC_STREAMOFF", gstcam_vidioc_streamoff(), &type)
    }

    /// VIDIOC_EXPBUF of buffer `index`: the exported file's descriptor, or the errno.
    func exportBuffer(_ index: UInt32, flags: Int32 = O_CLOEXEC | O_RDWR) -> Result<Int32, VirtualCameraTestError> {
        var export = v4l2_exportbuffer()
        export.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        export.index = index
        export.flags = UInt32(flags)
        let code = ioctlErrno(gstcam_vidioc_expbuf(), &export)
        return code == 0 ? .success(export.fd) : .failure(.call("VIDIOC_EXPBUF on \(path)", code))
    }

    func stopStreaming() throws {
        var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        try check("VIDIOC_STREAMOFF", gstcam_vidioc_streamoff(), &type)
        unmapAll()
        _ = requestBuffers(0)
    }

    private func unmapAll() {
        for mapping in mappings { munmap(mapping.address, mapping.length) }
        mappings.removeAll()
    }

    func control(_ id: UInt32) throws -> Int32 {
        var control = v4l2_control(id: id, value: 0)
        try check("VIDIOC_G_CTRL", gstcam_vidioc_g_ctrl(), &control)
        return control.value
    }

    func setControl(_ id: UInt32, _ value: Int32) throws {
        var control = v4l2_control(id: id, value: value)
        try check("VIDIOC_S_CTRL", gstcam_vidioc_s_ctrl(), &control)
    }

    /// Returns 0 or the errno of QUERYCAP.
    func queryCapabilityErrno() -> Int32 {
        var capability = v4l2_capability()
        return ioctlErrno(gstcam_vidioc_querycap(), &capability)
    }
}

// Control ids: the library's ControlID (Sources/GstCamera/Controls/ControlID.swift).

/// Reads a frame laid out as docs/virtual-camera.md describes, from packed YUYV or RGB24 bytes.
struct VirtualFrameReader {
    enum Layout { case yuyv, rgb }
    let bytes: [UInt8]
    let width: Int
    let height: Int
    let layout: Layout

    var bandRows: Int { height / 6 & ~1 }
    var sceneRows: Range<Int> { bandRows..<(height - 16) }

    /// Luma (0–255 scale) at a pixel.
    func luma(_ x: Int, _ y: Int) -> Int {
        switch layout {
        case .yuyv: return Int(bytes[(y * width + x) * 2])
        case .rgb:
            let i = (y * width + x) * 3
            return (299 * Int(bytes[i]) + 587 * Int(bytes[i + 1]) + 114 * Int(bytes[i + 2])) / 1000
        }
    }

    /// RGB at a pixel (YUYV converted with BT.601 limited range, as the camera encodes it).
    func rgb(_ x: Int, _ y: Int) -> (red: Int, green: Int, blue: Int) {
        switch layout {
        case .rgb:
            let i = (y * width + x) * 3
            return (Int(bytes[i]), Int(bytes[i + 1]), Int(bytes[i + 2]))
        case .yuyv:
            let pair = (y * width + (x & ~1)) * 2
            let yy = Double(bytes[(y * width + x) * 2]) - 16
            let u = Double(bytes[pair + 1]) - 128, v = Double(bytes[pair + 3]) - 128
            func clamp(_ d: Double) -> Int { max(0, min(255, Int(d.rounded()))) }
            return (clamp(1.164 * yy + 1.596 * v), clamp(1.164 * yy - 0.392 * u - 0.813 * v), clamp(1.164 * yy + 2.017 * u))
        }
    }

    /// The identity colour: the centre of the band.
    var identity: (red: Int, green: Int, blue: Int) { rgb(width / 2, bandRows / 2) }

    /// The sequence number stamped in the bottom 16 rows: 32 blocks, MSB first, white = 1.
    var stamp: UInt32 {
        let blockWidth = width / 32
        var value: UInt32 = 0
        for bit in 0..<32 {
            value = value << 1 | (luma(bit * blockWidth + blockWidth / 2, height - 8) > 128 ? 1 : 0)
        }
        return value
    }

    var meanSceneLuma: Double {
        var total = 0, count = 0
        for y in stride(from: sceneRows.lowerBound, to: sceneRows.upperBound, by: 2) {
            for x in stride(from: 0, to: width, by: 2) { total += luma(x, y); count += 1 }
        }
        return Double(total) / Double(count)
    }

    /// Energy of horizontal luma steps over the scene (sum of squares): falls when the lens blurs an edge.
    var sceneSharpness: Int {
        var total = 0
        for y in stride(from: sceneRows.lowerBound, to: sceneRows.upperBound, by: 4) {
            for x in 1..<width {
                let step = luma(x, y) - luma(x - 1, y)
                total += step * step
            }
        }
        return total
    }

    /// Light/dark checkerboard edges along a scene row near the top of the scene (clear of the moving square).
    var checkerEdgesAlongRow: Int {
        let y = sceneRows.lowerBound + 4
        var edges = 0
        var previous = luma(0, y) > 125
        for x in 1..<width {
            let light = luma(x, y) > 125
            if light != previous { edges += 1 }
            previous = light
        }
        return edges
    }
}
