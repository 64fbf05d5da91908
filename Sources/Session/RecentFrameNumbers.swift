/// The numbers of the last few frames counted where they enter the tee, by timestamp. A preview frame reaches its
/// appsink a little later (through a queue and a converter), when newer frames may have been counted already; it
/// keeps the number it was counted with by looking its timestamp up here.
struct RecentFrameNumbers: Sendable {
    private struct Entry: Sendable {
        let time: Duration
        let number: Int
    }

    /// More than the preview branch holds at once (its queue's two frames and the one being converted).
    static let capacity = 8

    private var entries: [Entry] = []
    private var next = 0

    init() {
        entries.reserveCapacity(Self.capacity)
    }

    /// Remembers frame `number`, timestamped `time` (frames without a time cannot be looked up).
    mutating func record(_ number: Int, at time: Duration?) {
        guard let time else { return }
        let entry = Entry(time: time, number: number)
        if entries.count < Self.capacity {
            entries.append(entry)
        } else {
            entries[next] = entry
        }
        next = (next + 1) % Self.capacity
    }

    /// The number of the frame timestamped `time`, if it is one of the last `capacity` recorded.
    func number(at time: Duration?) -> Int? {
        guard let time, !entries.isEmpty else { return nil }
        // Newest first: a camera switch may start the times over, and the newest frame is the one being delivered.
        for age in 1...entries.count {
            let entry = entries[(next - age + Self.capacity) % Self.capacity]
            if entry.time == time { return entry.number }
        }
        return nil
    }
}
