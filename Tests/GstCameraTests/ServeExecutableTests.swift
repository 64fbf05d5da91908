import Foundation
import Testing

/// `gstcam serve` runs a second executable, gstcam-serve, so that only serving loads libsoup, gst-rtsp-server and
/// webrtc (issue 13: 3 MiB and 4 ms of every cold photo).
@Suite struct ServeExecutableTests {
    static var serveBinary: String { URL(fileURLWithPath: gstcamBinary).deletingLastPathComponent().appendingPathComponent("gstcam-serve").path }

    /// The libraries an executable asks the dynamic loader for (its ELF NEEDED entries).
    static func neededLibraries(_ executable: String) throws -> [String] {
        let dynamic = try runProcess("/usr/bin/readelf", ["-d", executable])
        #expect(dynamic.status == 0, "\(dynamic.error)")
        return dynamic.output.split(separator: "\n").compactMap { line in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    static let servingLibraries = ["libsoup-3.0", "libgstrtspserver-1.0", "libgstwebrtc-1.0"]

    @Test func onlyGstcamServeLoadsTheServingLibraries() throws {
        let everyday = try Self.neededLibraries(gstcamBinary)
        let serving = try Self.neededLibraries(Self.serveBinary)
        for library in Self.servingLibraries {
            #expect(!everyday.contains { $0.hasPrefix(library + ".so") }, "gstcam needs \(library): \(everyday)")
            #expect(serving.contains { $0.hasPrefix(library + ".so") }, "gstcam-serve lacks \(library): \(serving)")
        }
        #expect(everyday.contains { $0.hasPrefix("libgstreamer-1.0.so") }, "\(everyday)")
    }

    @Test func gstcamServeRunsTheServingExecutable() throws {
        // gstcam-serve's own refusal, which the launcher in gstcam cannot give: it parses serve's options.
        let nothing = try gstcam(["serve", "--rtsp", "off", "--http", "off"])
        #expect(nothing.status == 64 && nothing.error.contains("leave nothing to serve"), "\(nothing.error)")
        let help = try gstcam(["serve", "--help"])
        #expect(help.status == 0 && help.output.contains("--bind ADDR"), "\(help.error)")
    }

    @Test func aMissingGstcamServeSaysWhereItWasLookedForAndHowToFixIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gstcam-alone-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: gstcamBinary, toPath: folder + "/gstcam")
        let alone = try runProcess(folder + "/gstcam", ["serve", "--rtsp", "0"])
        #expect(alone.status == 1, "\(alone.error)")
        #expect(alone.error.contains("gstcam serve needs gstcam-serve") && alone.error.contains(folder + "/gstcam-serve")
                && alone.error.contains("Install gstcam again"), "\(alone.error)")
        // The other commands do not need it.
        let version = try runProcess(folder + "/gstcam", ["--version"])
        #expect(version.status == 0 && version.output.hasPrefix("gstcam "), "\(version.error)")
    }
}
