import CGStreamer
import CameraErrors
import Dispatch
import Foundation
import GStreamer
import PipelineFiles
import Synchronization

/// `--publish URL`: pushes the session's shared H.264 to a media server (RTSP ANNOUNCE/RECORD with
/// pipelines/publish-rtsp.media, RTMP with publish-rtmp.media) that fans it out. When the server is missing or
/// goes away, the pipeline is rebuilt after a back-off (1 s, doubling up to 30 s); photos and the other viewers
/// carry on meanwhile, since the publisher only takes from the branch's leaky relay.
public final class Publisher: Sendable {
    private enum Phase {
        case running(pipeline: Element, subscription: Int)
        case waiting
        case stopped
    }

    private let url: String
    private let file: PipelineFile
    private let feed: BranchFeed
    private let phase = Mutex<Phase>(.waiting)
    /// Attempts since the last one that streamed (drives the back-off).
    private let failures = Atomic<Int>(0)
    /// Each connection that carried the stream, for reports ("published", "lost").
    let events: @Sendable (String) -> Void

    init(url: String, feed: BranchFeed, events: @escaping @Sendable (String) -> Void) throws {
        let scheme = url.split(separator: ":").first.map(String.init)?.lowercased()
        guard scheme == "rtsp" || scheme == "rtmp" else {
            throw CameraError.serveFailed(what: "Publishing", address: url, port: 0,
                                          detail: "only rtsp:// (ANNOUNCE/RECORD) and rtmp:// servers can be published to")
        }
        self.url = url
        self.feed = feed
        self.events = events
        file = try PipelineFile.load(scheme == "rtsp" ? "publish-rtsp.media" : "publish-rtmp.media")
        // Parsed once so a missing element (rtspclientsink, rtmp2sink) is reported now, naming the file.
        _ = try PipelineParser.parsePipeline(try file.description(with: ["url": url]), file: file.path)
        attempt()
    }

    /// Builds the pipeline and watches its bus on a thread; an error or end of stream schedules the next try.
    private func attempt() {
        guard case .waiting = phase.withLock({ $0 }) else { return }
        guard let pipeline = try? PipelineParser.parsePipeline(try file.description(with: ["url": url]), file: file.path),
              let source = pipeline.child(named: "network-source"), let bus = pipeline.bus else { return retry() }
        RTSPMount.configure(appSource: source)
        let subscription = feed.subscribe { sample in RTSPMount.push(sample, into: source) }
        let started: Bool = phase.withLock { phase in
            guard case .waiting = phase else { return false }
            phase = .running(pipeline: pipeline, subscription: subscription)
            return true
        }
        guard started else { feed.unsubscribe(subscription); return }
        if pipeline.setState(GST_STATE_PLAYING) == .failure { return lost("the pipeline would not start") }
        let thread = Thread { [weak self] in
            let started = ContinuousClock.now
            var announced = false
            while true {
                let message = bus.pop(timeout: 200_000_000)
                guard let self, case .running(let current, _) = self.phase.withLock({ $0 }), current === pipeline else { return }
                switch message {
                case .error(let error)?:
                    return self.lost(error.message)
                case .endOfStream?:
                    return self.lost("the server ended the stream")
                default:
                    break
                }
                // Three seconds without an error: the server took the stream (a refused connection fails at once).
                if !announced, ContinuousClock.now - started > .seconds(3) {
                    announced = true
                    self.failures.store(0, ordering: .relaxed)
                    self.events("publishing to \(self.url)")
                }
            }
        }
        thread.name = "gstcam-publish"
        thread.start()
    }

    private func lost(_ reason: String) {
        let previous: Phase = phase.withLock { phase in
            let previous = phase
            if case .running = phase { phase = .waiting }
            return previous
        }
        guard case .running(let pipeline, let subscription) = previous else { return }
        feed.unsubscribe(subscription)
        pipeline.setState(GST_STATE_NULL)
        events("publishing to \(url) stopped (\(reason)); trying again")
        retry()
    }

    private func retry() {
        let failed = failures.add(1, ordering: .relaxed).newValue
        let delay = min(30.0, pow(2, Double(failed - 1)))
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [weak self] in self?.attempt() }
    }

    /// Stops publishing for good.
    public func stop() {
        let previous = phase.withLock { phase in
            defer { phase = .stopped }
            return phase
        }
        if case .running(let pipeline, let subscription) = previous {
            feed.unsubscribe(subscription)
            pipeline.setState(GST_STATE_NULL)
        }
    }

    deinit { stop() }
}
