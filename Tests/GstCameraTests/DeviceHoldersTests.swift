import Foundation
import Testing
@testable import CameraErrors
@testable import V4L2

@Suite struct DeviceHoldersTests {
    @Test func findsTheProcessThatHoldsAFileOpenAndNamesItInTheBusyError() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/device"
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        holder.arguments = ["-c", "exec 3<'\(path)'; exec sleep 30"]
        try holder.run()
        defer { killAndWait(holder) }
        var found: [DeviceHolders.Holder] = []
        // The shell opens the file, then becomes sleep (exec): wait for that.
        for _ in 0..<50 where found.first?.command != "sleep" {
            found = DeviceHolders.processes(holding: path)
            if found.first?.command != "sleep" { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(found == [DeviceHolders.Holder(pid: holder.processIdentifier, command: "sleep")])
        let error = CameraError(errno: EBUSY, path: path, operation: "VIDIOC_REQBUFS")
        #expect(error.description == "\(path) is in use by PID \(holder.processIdentifier) (sleep). Close that program and try again.")
        #expect(DeviceHolders.processes(holding: folder + "/nobody-has-this").isEmpty)
    }
}
