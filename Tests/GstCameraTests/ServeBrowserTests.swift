import Foundation
import Testing
@testable import MediaFiles
@testable import Screen
@testable import Serve
@testable import Session

/// The web camera page of `gstcam serve` (issue 12) in headless Chromium, on the virtual camera, whose picture
/// has its identity colour (here e61e1e, red) along the top sixth over a checkerboard of eight squares across:
/// the live view shows the band, the shutter button saves a photo that the page shows, and the zoom slider
/// makes the squares larger (fewer across the picture).
@Suite(.serialized) struct ServeBrowserTests {
    static let red = (230, 30, 30)
    static let liveRect = "(() => { const r = document.querySelector('#live').getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()"

    @Test func thePageShowsTheCameraTakesAPhotoAndZooms() throws {
        let devices = "/dev/video0=uvc,color=e61e1e"
        let serving = try ScreenProcess(["serve", "--device", "/dev/video0", "--width", "640", "--height", "480",
                                         "--rtsp", "off", "--http", "0", "--json"], devices: devices)
        defer { serving.remove() }
        let url = try serving.servingURL("http://127.0.0.1:")
        let folder = try makeTemporaryFolder()
        defer { if ProcessInfo.processInfo.environment["GSTCAM_KEEP_SCREENSHOTS"] == nil { try? FileManager.default.removeItem(atPath: folder) } }

        let result = try HeadlessChromium.run(url + "?view=mjpeg", folder: folder, steps: [
            "sleep 1.5", "shot live.png", "eval " + Self.liveRect,
            "click #shutter", "wait #thumbnail", "sleep 0.5", "shot photo.png",
            "eval document.querySelector('#thumbnail').alt",
            "eval document.querySelector('#thumbnail').naturalWidth",
            "click #zoom 0.6", "sleep 2", "shot zoomed.png",
            "eval document.querySelector('#status').textContent",
        ])
        #expect(result.status == 0, "\(result.error.suffix(800))")
        let whole = (x: 0..<800, y: 0..<600)
        let live = try PageShot(folder + "/live.png")
        let liveRed = live.share(of: Self.red, x: whole.x, y: whole.y)
        #expect(liveRed > 0.05, "the live view shows the camera's red band: \(liveRed)")

        let printed = result.output.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.map { "\($0["value"] ?? "")" }
        #expect(printed.count == 4, "\(result.output)")
        let rect = try #require(result.output.split(separator: "\n").first.flatMap { line in
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["value"] as? [Double]
        }.map { $0.map { Int($0) } }, "\(result.output)")
        let values = Array(printed.dropFirst())
        let saved = serving.savedPhotos.map { $0.split(separator: "/").last.map(String.init) ?? $0 }
        #expect(saved.count == 1 && values.first == saved.first, "page shows \(values), gallery has \(saved)")
        #expect(values.dropFirst().first == "640", "the thumbnail is the full photo, loaded")

        let zoomed = try PageShot(folder + "/zoomed.png")
        let before = live.squareEdges(acrossRowAt: rect[1] + rect[3] * 6 / 10, from: rect[0], to: rect[0] + rect[2])
        let after = zoomed.squareEdges(acrossRowAt: rect[1] + rect[3] * 6 / 10, from: rect[0], to: rect[0] + rect[2])
        #expect(before >= 5 && after <= before / 2, "zoomed in, fewer checker squares across the picture: \(before) → \(after) edges")
        #expect(values.last?.contains("Virtual") == true || values.last?.contains("640×480") == true, "\(values)")
    }

    /// Unplugged, the camera's failure shows in the page's banner while the server stays up; plugged back in,
    /// serving resumes by itself, the banner goes and the live view shows the camera again.
    @Test func theErrorBannerShowsAnUnplugAndClearsOnReplug() throws {
        let serving = try ScreenProcess(["serve", "--device", "/dev/video0", "--width", "640", "--height", "480",
                                         "--rtsp", "off", "--http", "0", "--json"], devices: "/dev/video0=uvc,color=e61e1e")
        defer { serving.remove() }
        let url = try serving.servingURL("http://127.0.0.1:")
        let folder = try makeTemporaryFolder()
        defer { if ProcessInfo.processInfo.environment["GSTCAM_KEEP_SCREENSHOTS"] == nil { try? FileManager.default.removeItem(atPath: folder) } }
        let faults = serving.folder + "/vcam/video0"
        try FileManager.default.createDirectory(atPath: faults, withIntermediateDirectories: true)

        let banner = "eval [document.querySelector('#banner').classList.contains('shown'), document.querySelector('#banner').textContent]"
        let result = try HeadlessChromium.run(url + "?view=mjpeg", folder: folder, steps: [
            "sleep 1", "touch \(faults)/unplugged", "wait #banner.shown", "shot gone.png", banner,
            "rm \(faults)/unplugged", "wait #banner:not(.shown)", "sleep 1", "shot back.png", banner, "sleep 1", "shot later.png",
        ])
        #expect(result.status == 0, "\(result.error.suffix(800))")
        let states = result.output.split(separator: "\n").compactMap { line in
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["value"] as? [Any]
        }
        #expect(states.count == 2, "\(result.output)")
        #expect(states.first?.first as? Bool == true && (states.first?.last as? String)?.contains("/dev/video0") == true,
                "unplugged: \(states.first ?? [])")
        #expect(states.last?.first as? Bool == false, "back: \(states.last ?? [])")
        #expect(serving.output.contains(#""event":"disconnected""#) && serving.output.contains(#""event":"reconnected""#),
                "\(serving.output)")
        let back = try PageShot(folder + "/back.png")
        #expect(back.share(of: Self.red, x: 0..<800, y: 0..<600) > 0.05, "the live view shows the camera again")
        // Frames flow again (the virtual camera's white marker moves), not a picture frozen at the unplug.
        let later = try PageShot(folder + "/later.png")
        let moved = zip(back.image.rgb, later.image.rgb).filter { abs(Int($0) - Int($1)) > 60 }.count
        #expect(moved > 1000, "the live view moves after the replug: \(moved) values changed")
        #expect(serving.process.isRunning, "the server stayed up: \(serving.errors)")
    }

    /// The page's WebRTC view: the shared H.264 reaches Chromium through webrtcbin (signalled over the page's
    /// WebSocket) and the page switches its live view to it; the video shows the camera's red band and moves.
    @Test func theLiveViewBecomesWebRTC() throws {
        let serving = try ScreenProcess(["serve", "--device", "/dev/video0", "--width", "640", "--height", "480",
                                         "--rtsp", "off", "--http", "0", "--json"], devices: "/dev/video0=uvc,color=e61e1e")
        defer { serving.remove() }
        let url = try serving.servingURL("http://127.0.0.1:")
        let folder = try makeTemporaryFolder()
        defer { if ProcessInfo.processInfo.environment["GSTCAM_KEEP_SCREENSHOTS"] == nil { try? FileManager.default.removeItem(atPath: folder) } }
        let result = try HeadlessChromium.run(url, folder: folder, steps: [
            "wait body[data-view=webrtc]", "sleep 1", "shot webrtc.png", "sleep 1", "shot webrtc-later.png",
            "eval [document.body.dataset.view || 'none', document.querySelector('#rtc').videoWidth]",
        ])
        #expect(result.status == 0, "\(result.error.suffix(800))")
        let state = result.output.split(separator: "\n").compactMap { line in
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["value"] as? [Any]
        }.first ?? []
        #expect(state.first as? String == "webrtc" && state.last as? Int == 640, "view and video width: \(state)")
        let shot = try PageShot(folder + "/webrtc.png")
        #expect(shot.share(of: Self.red, x: 0..<800, y: 0..<600) > 0.05, "the WebRTC video shows the camera's red band")
        let later = try PageShot(folder + "/webrtc-later.png")
        let moved = zip(shot.image.rgb, later.image.rgb).filter { abs(Int($0) - Int($1)) > 60 }.count
        #expect(moved > 1000, "the WebRTC video moves: \(moved) values changed")
    }
}
