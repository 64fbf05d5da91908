import CGStreamer
import Glibc
import Testing

/// The suites that use the virtual camera's fault device (`VirtualCameraFixture.faultDevice`) are nested here so
/// that they run one at a time: a fault one of them injects (an unplug, a disconnect) or a stream it holds would
/// otherwise hit another's streams on the same device — suites run in parallel, `.serialized` on each alone only
/// orders its own tests. CI saw it as an unplug whose poll never reported POLLERR.
@Suite(.serialized) enum FaultDeviceTests {
    /// The poll events seen until both POLLERR and POLLHUP came, gathered over the looks: the app's fd learns of an
    /// unplug or a disconnect in steps (POLLPRI from the urgent byte, then the reset's POLLERR and POLLHUP, which the
    /// kernel sets one after the other; see epoll.c), which a loaded machine can show to separate polls. Frames that
    /// were ready before are taken off the queue meanwhile. 0 when POLLERR and POLLHUP did not both come in 5 s.
    static func waitForPollError(_ client: V4L2TestClient) -> Int16 {
        var pfd = pollfd(fd: client.fd, events: Int16(POLLIN | POLLPRI), revents: 0)
        var seen: Int16 = 0
        let deadline = monotonicNanoseconds() + 5_000_000_000
        while monotonicNanoseconds() < deadline {
            pfd.revents = 0
            if poll(&pfd, 1, 500) > 0 { seen |= pfd.revents }
            if seen & Int16(POLLERR) != 0, seen & Int16(POLLHUP) != 0 { return seen }
            var buffer = v4l2_buffer()
            buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            buffer.memory = V4L2_MEMORY_MMAP.rawValue
            _ = client.ioctlErrno(gstcam_vidioc_dqbuf(), &buffer)
        }
        return 0
    }
}
