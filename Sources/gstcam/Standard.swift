import Glibc

/// Unbuffered writes to stdout/stderr that interleave correctly with `print` (which is flushed first).
enum Standard {
    struct Stream: Sendable {
        let fd: Int32
        func write(_ text: String) {
            fflush(nil)  // all C streams, so earlier print output comes first
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                if written <= 0 { return }
                bytes = bytes.dropFirst(written)
            }
        }
    }
    static let output = Stream(fd: 1)
    static let error = Stream(fd: 2)
}
