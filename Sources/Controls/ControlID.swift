/// The V4L2 control ids the library looks for by meaning rather than by name. They are fixed kernel ABI
/// (`V4L2_CID_*` in <linux/v4l2-controls.h>); the UVC region-of-interest ones are newer than Debian 12's header.
public enum ControlID {
    static let brightness: UInt32 = 0x0098_0900
    static let exposureAuto: UInt32 = 0x009a_0901  // menu: 0 auto, 1 manual, 2 shutter priority, 3 aperture priority
    static let exposureAbsolute: UInt32 = 0x009a_0902  // exposure_time_absolute, in 100 µs units
    static let focusAbsolute: UInt32 = 0x009a_090a
    public static let focusAuto: UInt32 = 0x009a_090c  // focus_automatic_continuous
    static let zoomAbsolute: UInt32 = 0x009a_090d
    static let zoomContinuous: UInt32 = 0x009a_090f
    static let autoFocusStart: UInt32 = 0x009a_091c
    static let autoFocusStop: UInt32 = 0x009a_091d
    static let autoFocusStatus: UInt32 = 0x009a_091e  // bitmask: 1 busy, 2 reached, 4 failed
    static let flashLEDMode: UInt32 = 0x009c_0901  // menu: 0 none, 1 flash, 2 torch
    static let flashStrobe: UInt32 = 0x009c_0903
    static let flashTorchIntensity: UInt32 = 0x009c_0908
    /// V4L2_CID_UVC_REGION_OF_INTEREST_RECT (V4L2_CID_USER_UVC_BASE + 1), type V4L2_CTRL_TYPE_RECT.
    static let regionOfInterestRectangle: UInt32 = 0x0098_1ae1
    /// V4L2_CID_UVC_REGION_OF_INTEREST_AUTO: which automatic algorithms use the rectangle.
    static let regionOfInterestAuto: UInt32 = 0x0098_1ae2
}

/// Bits of V4L2_CID_UVC_REGION_OF_INTEREST_AUTO.
enum RegionOfInterestAuto {
    static let exposure: Int64 = 1 << 0
    static let focus: Int64 = 1 << 3
}
