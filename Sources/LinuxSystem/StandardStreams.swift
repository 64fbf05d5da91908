import Glibc

/// Unbuffered writes to stdout/stderr that interleave correctly with `print` (which is flushed first), through
/// the same write policy as every file (`SystemCalls.writeAll`: EINTR retried, short writes continued).
public enum Standard {
    public struct Stream: Sendable {
        public let fd: Int32

        /// Writes `text`; a closed stream (EPIPE, EBADF) is ignored: there is no one left to tell.
        public func write(_ text: String) {
            fflush(nil)  // all C streams, so earlier print output comes first
            try? SystemCalls.writeAll(fd, Array(text.utf8))
        }

        /// Writes `bytes` whole, or throws the errno (a photo streamed to standard output must not be cut short
        /// silently).
        public func write(bytes: [UInt8]) throws(Errno) {
            fflush(nil)
            try SystemCalls.writeAll(fd, bytes)
        }
    }

    public static let output = Stream(fd: 1)
    public static let error = Stream(fd: 2)
}
