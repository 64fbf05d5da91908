import Foundation
@testable import Session

/// The sequence number the virtual camera stamps into every frame (Sources/VirtualCamera/frames.c): the bottom
/// 16 rows hold 32 blocks of width W/32, most significant bit first, white = 1, black = 0.
enum ShutterStamp {
    /// The stamp of an RGB image (rows `bytesPerRow` apart), or nil when a block is neither clearly white
    /// nor clearly black (not a virtual-camera frame, or a scaled/zoomed one).
    static func decode(rgb: [UInt8], width: Int, height: Int, bytesPerRow: Int) -> UInt32? {
        let blockWidth = width / 32
        let row = height - 8
        var value: UInt32 = 0
        for bit in 0..<32 {
            let x = bit * blockWidth + blockWidth / 2
            let offset = row * bytesPerRow + x * 3
            guard offset + 2 < rgb.count else { return nil }
            let luma = (Int(rgb[offset]) + Int(rgb[offset + 1]) + Int(rgb[offset + 2])) / 3
            guard luma < 70 || luma > 185 else { return nil }
            value = value << 1 | (luma > 185 ? 1 : 0)
        }
        return value
    }

    static func decode(_ frame: Frame) -> UInt32? {
        decode(rgb: frame.bytes, width: frame.width, height: frame.height, bytesPerRow: frame.bytesPerRow)
    }

    /// The stamp of a photo file (decoded to RGB with GStreamer).
    static func decode(photo path: String) throws -> UInt32? {
        let image = try decodeImage(path)
        return decode(rgb: image.rgb, width: image.width, height: image.height, bytesPerRow: image.width * 3)
    }
}
