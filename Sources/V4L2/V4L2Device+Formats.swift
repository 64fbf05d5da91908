import CGStreamer
import Glibc
import CameraErrors

/// V4L2_BUF_TYPE_VIDEO_CAPTURE: the only buffer type the library enumerates formats for.
public let videoCaptureBufferType: UInt32 = 1
public let videoCaptureMultiplanarBufferType: UInt32 = 9

/// One entry of VIDIOC_ENUM_FMT.
public struct FormatDescription: Sendable, Hashable {
    public var pixelFormat: PixelFormat
    public var description: String
    public var isCompressed: Bool
}

/// One entry of VIDIOC_ENUM_FRAMESIZES.
public enum FrameSizeRange: Sendable, Hashable {
    case discrete(width: UInt32, height: UInt32)
    /// V4L2_FRMSIZE_TYPE_STEPWISE / CONTINUOUS (the latter is stepwise with step 1).
    case stepwise(minWidth: UInt32, maxWidth: UInt32, widthStep: UInt32,
                  minHeight: UInt32, maxHeight: UInt32, heightStep: UInt32)
}

/// One entry of VIDIOC_ENUM_FRAMEINTERVALS: frame durations as fractions of a second.
public enum FrameIntervalRange: Sendable, Hashable {
    case discrete(FrameInterval)
    case stepwise(minimum: FrameInterval, maximum: FrameInterval, step: FrameInterval)
}

/// A frame duration, numerator/denominator seconds (1/30 is 30 fps).
public struct FrameInterval: Sendable, Hashable {
    var numerator: UInt32
    var denominator: UInt32
    /// The rate this interval gives (1/30 s → 30 fps); nil for a zero interval.
    public var frameRate: FrameRate? { FrameRate(intervalNumerator: numerator, intervalDenominator: denominator) }
}

extension V4L2Device {
    /// VIDIOC_QUERYCAP.
    public func queryCapabilities() throws(CameraError) -> DeviceIdentity {
        var capability = v4l2_capability()
        try ioctl(gstcam_vidioc_querycap(), "VIDIOC_QUERYCAP", &capability)
        let all = V4L2CapabilityFlags(rawValue: capability.capabilities)
        let node = all.contains(.deviceCaps) ? V4L2CapabilityFlags(rawValue: capability.device_caps) : all
        return DeviceIdentity(driver: cString(capability.driver), card: cString(capability.card),
                              busInfo: cString(capability.bus_info), version: capability.version,
                              capabilities: all, nodeCapabilities: node)
    }

    /// VIDIOC_ENUM_FMT, all indices until the driver answers EINVAL.
    public func formats(bufferType: UInt32 = videoCaptureBufferType) throws(CameraError) -> [FormatDescription] {
        var result: [FormatDescription] = []
        for index in UInt32(0)... {
            var description = v4l2_fmtdesc()
            description.index = index
            description.type = bufferType
            if let code = ioctlErrno(gstcam_vidioc_enum_fmt(), &description) {
                if code == EINVAL { break }
                throw CameraError(errno: code, path: path, operation: "VIDIOC_ENUM_FMT")
            }
            result.append(FormatDescription(pixelFormat: PixelFormat(rawValue: description.pixelformat),
                                            description: cString(description.description),
                                            isCompressed: description.flags & 0x0001 != 0))
        }
        return result
    }

    /// VIDIOC_ENUM_FRAMESIZES for one format.
    public func frameSizes(for format: PixelFormat) throws(CameraError) -> [FrameSizeRange] {
        var result: [FrameSizeRange] = []
        for index in UInt32(0)... {
            var size = v4l2_frmsizeenum()
            size.index = index
            size.pixel_format = format.rawValue
            if let code = ioctlErrno(gstcam_vidioc_enum_framesizes(), &size) {
                if code == EINVAL || code == ENOTTY { break }
                throw CameraError(errno: code, path: path, operation: "VIDIOC_ENUM_FRAMESIZES")
            }
            if size.type == 1 {  // V4L2_FRMSIZE_TYPE_DISCRETE
                result.append(.discrete(width: size.discrete.width, height: size.discrete.height))
            } else {  // continuous or stepwise: one entry describes everything
                let s = size.stepwise
                result.append(.stepwise(minWidth: s.min_width, maxWidth: s.max_width, widthStep: max(1, s.step_width),
                                        minHeight: s.min_height, maxHeight: s.max_height, heightStep: max(1, s.step_height)))
                break
            }
        }
        return result
    }

    /// VIDIOC_ENUM_FRAMEINTERVALS for one format and size.
    public func frameIntervals(for format: PixelFormat, width: UInt32, height: UInt32) throws(CameraError) -> [FrameIntervalRange] {
        var result: [FrameIntervalRange] = []
        for index in UInt32(0)... {
            var interval = v4l2_frmivalenum()
            interval.index = index
            interval.pixel_format = format.rawValue
            interval.width = width
            interval.height = height
            if let code = ioctlErrno(gstcam_vidioc_enum_frameintervals(), &interval) {
                if code == EINVAL || code == ENOTTY { break }
                throw CameraError(errno: code, path: path, operation: "VIDIOC_ENUM_FRAMEINTERVALS")
            }
            if interval.type == 1 {  // V4L2_FRMIVAL_TYPE_DISCRETE
                result.append(.discrete(FrameInterval(numerator: interval.discrete.numerator,
                                                      denominator: interval.discrete.denominator)))
            } else {
                let s = interval.stepwise
                result.append(.stepwise(minimum: FrameInterval(numerator: s.min.numerator, denominator: s.min.denominator),
                                        maximum: FrameInterval(numerator: s.max.numerator, denominator: s.max.denominator),
                                        step: FrameInterval(numerator: s.step.numerator, denominator: s.step.denominator)))
                break
            }
        }
        return result
    }
}
