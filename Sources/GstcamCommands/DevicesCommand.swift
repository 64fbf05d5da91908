import FoundationEssentials
import GstCamera
import Reports
import Screen

/// `gstcam devices`: the cameras of this machine, with formats, sizes, rates and features.
enum DevicesCommand: Command {
    static let name = "devices"
    static let summary = "List the cameras, their formats, sizes, frame rates and features"
    static let usage = """
    USAGE: gstcam devices [--json]

    Scans /dev/video* (no udev needed) and lists every video-capture node, grouped by physical device. Metadata
    and output nodes are shown as nodes of their device but are not cameras. A camera you may not open is still
    listed, with the reason. The number in [brackets] is what --device N takes.

    OPTIONS:
      --json       Print a JSON array instead (format: docs/devices.md); [] when there is no camera.
      -h, --help   Show this help.
    """

    static func run(_ arguments: inout Arguments) async throws {
        let json = arguments.flag("--json")
        try arguments.finish()
        let cameras = CameraDiscovery.cameras()
        if json && cameras.isEmpty {
            print("[]")
        } else if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(cameras), as: UTF8.self))
        } else if cameras.isEmpty {
            print("No camera found. (Looked for /dev/video* capture devices. Without a camera, try the virtual "
                + "camera: see README, \"Without a camera\".)")
        } else {
            print(render(cameras), terminator: "")
        }
    }

    /// Physical devices (cameras sharing bus info) one after another, each camera with its formats.
    static func render(_ cameras: [Camera]) -> String {
        var groups: [[Camera]] = []
        for camera in cameras {
            if !camera.busInfo.isEmpty, let index = groups.firstIndex(where: { $0[0].busInfo == camera.busInfo }) {
                groups[index].append(camera)
            } else {
                groups.append([camera])
            }
        }
        var out = ""
        for (number, group) in groups.enumerated() {
            if number > 0 { out += "\n" }
            let first = group[0]
            let title = first.name.isEmpty ? "Unknown camera" : first.name
            let details = [first.driver, first.busInfo].filter { !$0.isEmpty }.joined(separator: ", ")
            out += title + (details.isEmpty ? "" : " (\(details))") + "\n"
            if first.nodes.count > 1 {
                out += "  nodes: " + first.nodes.map { "\($0.path) (\($0.kind.rawValue))" }.joined(separator: ", ") + "\n"
            }
            for camera in group { out += render(camera) }
        }
        return out
    }

    static func render(_ camera: Camera) -> String {
        var out = "  [\(camera.index)] \(camera.path)"
        if camera.isInfrared { out += "  infrared" }
        out += "\n"
        if let problem = camera.problem {
            return out + "      cannot use it: \(problem)\n"
        }
        if let id = camera.stableID { out += "      id:    \(id)\n" }
        if let path = camera.stablePath { out += "      path:  \(path)\n" }
        out += "      controls: \(features(camera.features)) (\(camera.features.controlCount) in all: "
            + "gstcam controls --device \(camera.index))\n"
        for format in camera.formats {
            let label = format.description.isEmpty ? "" : "  \(format.description)"
            out += "      \(format.pixelFormat.description.padding(5))\(label)\(format.isCompressed ? " (compressed)" : "")\n"
            if let reason = format.support.skipReason {
                out += "             skipped: \(reason)\n"
                continue
            }
            // Consecutive sizes with the same frame rates share a line: "320x240, 640x480 at 30, 15 fps".
            var lines: [(sizes: [String], rates: [FrameRate])] = []
            for size in format.sizes {
                var sizeText = "\(size.width)x\(size.height)"
                if let range = size.range {
                    sizeText = "\(range.minWidth)x\(range.minHeight) … \(range.maxWidth)x\(range.maxHeight)"
                        + " (steps \(range.widthStep)x\(range.heightStep))"
                }
                // A stepwise/continuous rate range is written with its size and shares no line.
                var rates = size.frameRates
                if let rateRange = size.rateRange {
                    sizeText += " at \(rateRange.lowerBound) to \(rateRange.upperBound) fps"
                    rates = []
                }
                if let last = lines.last, !rates.isEmpty, last.rates == rates {
                    lines[lines.count - 1].sizes.append(sizeText)
                } else {
                    lines.append(([sizeText], rates))
                }
            }
            for line in lines {
                let rates = line.rates.isEmpty ? "" : " at " + line.rates.map(\.description).joined(separator: ", ") + " fps"
                out += "             " + line.sizes.joined(separator: ", ") + rates + "\n"
            }
        }
        return out
    }

    static func features(_ features: ControlSummary) -> String {
        var names: [String] = []
        if features.zoom { names.append("optical zoom") }
        if features.autoFocus { names.append("auto focus") }
        if features.oneShotFocus { names.append("one-shot focus") }
        if features.manualFocus { names.append("manual focus") }
        if features.regionOfInterest { names.append("focus/exposure point") }
        if features.exposure { names.append("exposure") }
        if features.torch { names.append("torch") }
        if features.flash { names.append("flash") }
        return names.isEmpty ? "no zoom, focus or torch" : names.joined(separator: ", ")
    }
}

fileprivate extension String {
    /// Left-aligned in a column of `width` characters.
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
