import Glibc
import CameraErrors
import Controls
import LinuxSystem
import V4L2

/// What one `/dev/videoN` node turned out to be.
struct NodeProbe {
    var path: String
    var number: Int
    var kind: CameraNode.Kind
    var name: String
    var driver = ""
    var busInfo = ""
    var formats: [CameraFormat] = []
    var features = ControlSummary()
    var problem: CameraError?

    /// Opens and queries the node; nil when it vanished between readdir and open. `detail`: `.identity` stops after
    /// VIDIOC_QUERYCAP (what the node is, its name and bus), leaving `formats` and `features` empty.
    init?(path: String, number: Int, detail: CameraDetail = .full) {
        self.path = path
        self.number = number
        let device: V4L2Device
        do {
            device = try V4L2Device.open(path)
        } catch {
            if case .noSuchDevice = error { return nil }
            // The sysfs name is readable without opening the device, so even a forbidden camera has a name.
            name = DirectoryListing.firstLine(of: "/sys/class/video4linux/video\(number)/name") ?? ""
            kind = .unknown
            problem = error
            return
        }
        let identity: DeviceIdentity
        do {
            identity = try device.queryCapabilities()
        } catch {
            name = DirectoryListing.firstLine(of: "/sys/class/video4linux/video\(number)/name") ?? ""
            if case .notCaptureDevice = error {
                kind = .other  // not a V4L2 node at all: nothing to report
            } else {
                kind = .unknown
                problem = error
            }
            return
        }
        name = identity.card
        driver = identity.driver
        busInfo = identity.busInfo
        kind = Self.kind(of: identity.nodeCapabilities)
        guard kind == .capture, detail == .full else { return }
        let bufferType = identity.nodeCapabilities.contains(.videoCapture) ? videoCaptureBufferType : videoCaptureMultiplanarBufferType
        do {
            formats = try Self.formats(of: device, bufferType: bufferType)
            features = try ControlSummary(device: device)
        } catch {
            problem = error
        }
    }

    private static func kind(of capabilities: V4L2CapabilityFlags) -> CameraNode.Kind {
        if capabilities.capturesVideo { return .capture }
        if capabilities.contains(.metadataCapture) { return .metadata }
        if !capabilities.isDisjoint(with: [.videoMemoryToMemory, .videoMemoryToMemoryMultiplanar]) { return .codec }
        if !capabilities.isDisjoint(with: [.videoOutput, .videoOutputMultiplanar, .metadataOutput]) { return .output }
        return .other
    }

    private static func formats(of device: V4L2Device, bufferType: UInt32) throws(CameraError) -> [CameraFormat] {
        var result: [CameraFormat] = []
        for format in try device.formats(bufferType: bufferType) {
            var sizes: [CameraFrameSize] = []
            for size in try device.frameSizes(for: format.pixelFormat) {
                switch size {
                case let .discrete(width, height):
                    let rates = try device.frameIntervals(for: format.pixelFormat, width: width, height: height)
                    sizes.append(CameraFrameSize(width: Int(width), height: Int(height), frameRates: frameRates(rates),
                                                 rateRange: rateRange(rates)))
                case let .stepwise(minWidth, maxWidth, widthStep, minHeight, maxHeight, heightStep):
                    let rates = try device.frameIntervals(for: format.pixelFormat, width: maxWidth, height: maxHeight)
                    sizes.append(CameraFrameSize(
                        width: Int(maxWidth), height: Int(maxHeight), frameRates: frameRates(rates),
                        range: .init(minWidth: Int(minWidth), maxWidth: Int(maxWidth), widthStep: Int(widthStep),
                                     minHeight: Int(minHeight), maxHeight: Int(maxHeight), heightStep: Int(heightStep)),
                        rateRange: rateRange(rates)))
                }
            }
            result.append(CameraFormat(pixelFormat: format.pixelFormat, description: format.description,
                                       isCompressed: format.isCompressed, sizes: sizes))
        }
        return result
    }

    /// Exact frame rates, highest first, without repeats; a stepwise/continuous range gives its two ends.
    private static func frameRates(_ intervals: [FrameIntervalRange]) -> [FrameRate] {
        var rates: [FrameRate] = []
        for interval in intervals {
            switch interval {
            case let .discrete(value): rates += [value.frameRate].compactMap { $0 }
            case let .stepwise(minimum, maximum, _): rates += [minimum.frameRate, maximum.frameRate].compactMap { $0 }
            }
        }
        return Array(Set(rates)).sorted(by: >)
    }

    /// The rates of a stepwise/continuous interval range (the longest interval is the slowest rate).
    private static func rateRange(_ intervals: [FrameIntervalRange]) -> ClosedRange<FrameRate>? {
        guard case let .stepwise(minimum, maximum, _)? = intervals.first,
              let fastest = minimum.frameRate, let slowest = maximum.frameRate, slowest <= fastest else { return nil }
        return slowest...fastest
    }
}
