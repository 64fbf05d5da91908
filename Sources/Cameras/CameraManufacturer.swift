import LinuxSystem
/// Who made a camera, as the camera itself says: the `manufacturer` string of the USB device a video node belongs
/// to (sysfs), e.g. "Logitech". V4L2 has no such field and a card name is no maker ("Back Camera", "HD Pro
/// Webcam C920"), so a camera that is not on USB, or does not say, has none.
public enum CameraManufacturer {
    /// The maker of the camera whose node is `device` (e.g. /dev/video0); `sysfs` is the sysfs root.
    public static func of(device: String, sysfs: String = "/sys") -> String? {
        guard let node = device.split(separator: "/").last else { return nil }
        // class/video4linux/videoN/device links to the USB interface; the USB device above it has the strings.
        let text = DirectoryListing.firstLine(of: "\(sysfs)/class/video4linux/\(node)/device/../manufacturer")
        return text.flatMap { $0.isEmpty ? nil : $0 }
    }
}
