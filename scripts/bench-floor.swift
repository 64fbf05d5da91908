// What a Swift process pays before it does any work, for scripts/bench's "floor" row (issue 13): the Swift
// runtime linked as gstcam links it (statically, -z now) with the parts every gstcam command starts (an async
// main on the cooperative thread pool, Dispatch, FoundationEssentials' Date, a Mutex), printing a line a second
// for the seconds its argument names, as `gstcam preview --sink none` prints its figures. scripts/bench-floor.c
// does the same in C: the difference of their peak memory is the least that gstcam can be above a C program.
import Dispatch
import FoundationEssentials
import Synchronization

@main
struct BenchFloor {
    static func main() async {
        let seconds = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 3
        let printed = Mutex(0)
        let start = Date()
        for _ in 0..<seconds {
            try? await Task.sleep(for: .seconds(1))
            let line = printed.withLock { count in
                count += 1
                return count
            }
            DispatchQueue.global().sync {}
            print("line \(line) at \(Int(Date().timeIntervalSince(start))) s")
        }
    }
}
