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
            throw .unknownCamera(selector: text, available: available)
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
}
