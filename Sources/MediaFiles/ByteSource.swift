import Glibc
import LinuxSystem

/// Random access to the bytes of an image, so the readers can look at headers and trailers of a large
/// file without reading all of it, and at images still in memory the same way.
protocol ByteSource {
    var count: Int { get }
    /// The bytes in `range`, or nil if the range is not wholly inside the source or cannot be read.
    func bytes(_ range: Range<Int>) -> [UInt8]?
}

extension ByteSource {
    func byte(at offset: Int) -> UInt8? { bytes(offset..<offset + 1)?.first }

    func bigEndian16(at offset: Int) -> Int? {
        guard let pair = bytes(offset..<offset + 2) else { return nil }
        return Int(pair[0]) << 8 | Int(pair[1])
    }

    func bigEndian32(at offset: Int) -> Int? {
        guard let four = bytes(offset..<offset + 4) else { return nil }
        return four.reduce(0) { $0 << 8 | Int($1) }
    }

    /// The last `length` bytes.
    func suffix(_ length: Int) -> [UInt8]? {
        count >= length ? bytes(count - length..<count) : nil
    }
}

/// An image in memory.
struct MemoryBytes: ByteSource {
    let storage: [UInt8]
    init(_ storage: [UInt8]) { self.storage = storage }
    var count: Int { storage.count }
    func bytes(_ range: Range<Int>) -> [UInt8]? {
        guard range.lowerBound >= 0, range.upperBound <= storage.count else { return nil }
        return Array(storage[range])
    }
}

/// An open file, read with pread(2); `withFile` owns the descriptor for the duration of its body.
struct FileBytes: ByteSource {
    /// The descriptor, borrowed from the `FileDescriptor` that `withFile` holds.
    let descriptor: Int32
    let count: Int

    func bytes(_ range: Range<Int>) -> [UInt8]? {
        guard range.lowerBound >= 0, range.upperBound <= count,
              let read = try? SystemCalls.read(descriptor, count: range.count, at: range.lowerBound),
              read.count == range.count else { return nil }
        return read
    }

    /// Opens `path` read-only for the duration of `body`.
    static func withFile<Result>(_ path: String, _ body: (FileBytes) -> Result) throws(Errno) -> Result {
        let file = try FileDescriptor.open(path, O_RDONLY)
        let result = body(FileBytes(descriptor: file.rawValue, count: Int(try file.status().st_size)))
        file.close()  // after `body`: FileBytes reads through the raw descriptor
        return result
    }
}
