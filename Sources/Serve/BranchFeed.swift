import Session
import Synchronization

/// A network branch's subscribers, kept across sessions: when the camera comes back in a new session, its new
/// branch takes over every subscriber (the RTSP media, the live-view streams), which then carry on with the new
/// frames instead of being reconnected.
final class BranchFeed: Sendable {
    private struct State {
        var branch: NetworkBranch
        /// Each subscriber's handler and its id at the current branch.
        var subscribers: [Int: (handler: NetworkBranch.Handler, id: Int)] = [:]
        var nextID = 0
    }

    private let state: Mutex<State>

    init(_ branch: NetworkBranch) {
        state = Mutex(State(branch: branch))
    }

    func subscribe(_ handler: @escaping NetworkBranch.Handler) -> Int {
        state.withLock { state in
            state.nextID += 1
            state.subscribers[state.nextID] = (handler, state.branch.subscribe(handler))
            return state.nextID
        }
    }

    func unsubscribe(_ id: Int) {
        state.withLock { state in
            if let subscriber = state.subscribers.removeValue(forKey: id) { state.branch.unsubscribe(subscriber.id) }
        }
    }

    func requestKeyFrame() { state.withLock { $0.branch }.requestKeyFrame() }

    /// Moves every subscriber to `branch` and removes the previous one (whose pipeline may be gone already).
    func replace(with branch: NetworkBranch) {
        let previous = state.withLock { state in
            let previous = state.branch
            state.branch = branch
            for (key, subscriber) in state.subscribers {
                state.subscribers[key]?.id = branch.subscribe(subscriber.handler)
            }
            return previous
        }
        previous.remove()
    }

    /// Removes the branch (the server stopped).
    func remove() { state.withLock { $0.branch }.remove() }
}
