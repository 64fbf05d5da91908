import CameraErrors
import LinuxSystem
import V4L2
/// Picks one camera from a discovery list by what a person typed (see `CameraDiscovery.camera(matching:)`).
enum CameraSelector {
    static func select(_ selector: String?, from cameras: [Camera]) throws(CameraError) -> Camera {
        guard let first = cameras.first else { throw .noCamera }
        let text = (selector ?? "").trimmingWhitespace
        if text.isEmpty { return first }
        let available = cameras.map(\.summary)

        if text.allSatisfy(\.isASCII), let index = Int(text) {
            guard cameras.indices.contains(index) else { throw .unknownCamera(selector: text, available: available) }
            return cameras[index]
        }
        if let match = cameras.first(where: { [$0.path, $0.stableID, $0.stablePath].contains(text) }) { return match }
        if text.contains("/") {
            // A link we did not index (e.g. a custom udev rule) still names a node.
            if let target = DirectoryListing.linkTarget(text), let match = cameras.first(where: { $0.path == target }) {
                return match
            }
            throw Self.whyNotACamera(text, available: available)
        }
        let byNodeOrLink = cameras.filter { camera in
            [camera.path, camera.stableID, camera.stablePath].compactMap { $0?.split(separator: "/").last.map(String.init) }
                .contains(text)
        }
        if byNodeOrLink.count == 1 { return byNodeOrLink[0] }

        let fragment = text.lowercased()
        let exact = cameras.filter { $0.name.lowercased() == fragment }
        if exact.count == 1 { return exact[0] }
        let matches = cameras.filter { $0.name.lowercased().contains(fragment) }
        switch matches.count {
        case 0: throw .unknownCamera(selector: text, available: available)
        case 1: return matches[0]
        default: throw .ambiguousCamera(selector: text, matches: matches.map(\.summary))
        }
    }

    /// Why a path that is not in the camera list is not a camera: it does not exist, may not be opened, is not
    /// V4L2 at all, or is a V4L2 node that does not capture video (a metadata or output node).
    static func whyNotACamera(_ path: String, available: [String]) -> CameraError {
        let device: V4L2Device
        do {
            device = try V4L2Device.open(path)
        } catch .noSuchDevice {
            return .noSuchDevice(path: path, available: available)
        } catch {
            return error
        }
        do {
            _ = try device.queryCapabilities()
        } catch {
            return error
        }
        return .notCaptureDevice(path: path, reason: "a V4L2 node that does not capture video, such as a metadata node")
    }
}
