import Foundation
import Testing
@testable import MediaFiles
@testable import Screen
@testable import Serve
@testable import Session

/// The camera page's controls (issue 12) in headless Chromium, on the virtual sensor camera (which has a
/// torch): the torch button switches the camera's torch (read back by v4l2-ctl through the virtual camera's
/// shared state), the record button records a video that appears in the gallery, and the gallery lists photos
/// and videos with thumbnails, a download link and a delete button that deletes the file.
@Suite(.serialized) struct ServePageControlsTests {
    static let devices = "/dev/video2=sensor,color=00ff00"

    @Test func thePageTogglesTheTorchRecordsAndKeepsAGallery() throws {
        let serving = try ScreenProcess(["serve", "--device", "/dev/video2", "--width", "640", "--height", "480",
                                         "--rtsp", "off", "--http", "0", "--json"], devices: Self.devices)
        defer { serving.remove() }
        let url = try serving.servingURL("http://127.0.0.1:")
        let folder = try makeTemporaryFolder()
        defer { if ProcessInfo.processInfo.environment["GSTCAM_KEEP_SCREENSHOTS"] == nil { try? FileManager.default.removeItem(atPath: folder) } }
        let torch = "eval 'hidden ' + document.querySelector('#torch').hidden + ', pressed ' + document.querySelector('#torch').getAttribute('aria-pressed')"
        let items = "eval [...document.querySelectorAll('#items li')].map(li => li.dataset.kind + ':' + li.dataset.name)"
        let result = try HeadlessChromium.run(url + "?view=mjpeg", folder: folder, steps: [
            "sleep 1.5", torch, "click #torch", "sleep 1.5", torch,
            "click #record", "sleep 2.5", "eval document.querySelector('#status').textContent", "click #record",
            "wait #items li[data-kind=video]", "click #shutter", "wait #items li[data-kind=photo]", "sleep 1.5", "size 800 900", "sleep 0.5", "shot page.png", items,
            "eval document.querySelector('#items li[data-kind=photo] .download').getAttribute('href')",
            "eval document.querySelector('#items video').videoWidth",
            "click #items>li[data-kind=photo]>.delete", "sleep 1.5", items,
        ])
        #expect(result.status == 0, "\(result.error.suffix(800))")
        let values = result.output.split(separator: "\n").compactMap { line in
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["value"]
        }
        #expect(values.count == 7, "\(result.output)")
        guard values.count == 7 else { return }
        #expect(values[0] as? String == "hidden false, pressed false" && values[1] as? String == "hidden false, pressed true",
                "the torch button shows the torch off, then on: \(values[0]) → \(values[1])")
        let led = try runProcess("/usr/bin/v4l2-ctl", ["-d", "/dev/video2", "-C", "led_mode"],
                                 environment: serving.environment(devices: Self.devices))
        #expect(led.output.contains("led_mode: 2"), "the camera's LED is in torch mode: \(led.output) \(led.error)")
        #expect((values[2] as? String)?.contains("● REC") == true, "recording shows in the status line: \(values[2])")

        let videos = (try? FileManager.default.contentsOfDirectory(atPath: serving.folder + "/videos")) ?? []
        let video = try #require(videos.first { $0.hasPrefix("VID_") }, "a video was recorded: \(videos)")
        let listed = values[3] as? [String] ?? []
        let photo = try #require(listed.first { $0.hasPrefix("photo:IMG_") }?.dropFirst("photo:".count), "\(listed)")
        #expect(Set(listed) == ["video:" + video, "photo:" + photo], "the gallery lists the photo and the video: \(listed)")
        #expect(values[4] as? String == "/photos/\(photo)?download", "\(values[4])")
        #expect(values[5] as? Int == 640, "the video's thumbnail is its first frame, decoded: width \(values[5])")
        #expect(values[6] as? [String] == ["video:" + video], "after delete: \(values[6])")
        #expect(serving.savedPhotos.isEmpty, "the photo file is deleted")

        let probe = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                                                        serving.folder + "/videos/" + video], environment: environmentWithoutCameras)
        #expect((Double(probe.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 1.5, "the video plays ≥ 1.5 s: \(probe.output)")
        let download = try runProcess("/usr/bin/curl", ["-s", "-D", "-", "-o", "/dev/null", url + "videos/" + video + "?download"],
                                      environment: environmentWithoutCameras)
        #expect(download.output.contains("Content-Disposition: attachment; filename=\"\(video)\"") && download.output.contains("video/mp4"),
                "\(download.output)")
    }
}
