import Glibc
import CameraErrors
import LinuxSystem

extension AtomicPhotoWriter {
    /// Writes an image already in memory to the temporary file (then `commit()` makes it the photo).
    /// Throws `writeFailed` naming the final path, e.g. ENOSPC; the temporary file is removed then.
    func write(_ bytes: [UInt8]) throws(CameraError) {
        do {
            try FileDescriptor.open(temporaryPath, O_WRONLY | O_TRUNC).writeAll(bytes)
        } catch {
            discard()
            throw .writeFailed(path: finalPath, errno: error.code)
        }
    }
}
