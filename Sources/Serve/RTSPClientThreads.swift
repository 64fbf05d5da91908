import CGStreamer
import CRTSPServer
import Synchronization

/// The RTSP server's thread pool: each client on a thread of its own, and which thread that is, so that stopping
/// the server closes each client on its own thread.
///
/// gst-rtsp-server's default pool runs every client on one thread, and its connection reads a request's header to
/// the end however long it is (at about 2 MB/s): one client sending an endless header held every other client's
/// requests up for as long as it kept sending. Past `maxThreads`, clients share threads (the pool's round robin).
///
/// A client is closed on its own thread because closing it from another one (`gst_rtsp_server_client_filter`'s
/// REMOVE) frees its connection's streams under that thread while it reads a request, which then spins on them
/// forever (GLib criticals, a core busy). Its connection is shut down first, so a thread in the middle of a long
/// header reads the end and comes back to its loop, where the close waits.
final class RTSPClientThreads: Sendable {
    /// `@unchecked Sendable`: a GMainContext is thread-safe, and each is held with a reference of its own.
    private struct Context: @unchecked Sendable {
        let context: OpaquePointer
    }

    /// The context of each client's thread, by the client's address; removed when the client closes.
    private let contexts = Mutex<[UInt: Context]>([:])

    /// A thread pool for `gst_rtsp_server_set_thread_pool` that records here the thread of each client.
    func makePool(maxThreads: Int) -> UnsafeMutablePointer<GstRTSPThreadPool> {
        let object = g_object_new_with_properties(Self.poolType, 0, nil, nil)!
        // The pool keeps this object alive (released when the pool is finalized).
        g_object_set_data_full(object, Self.ownerKey, Unmanaged.passRetained(self).toOpaque(), { data in
            if let data { Unmanaged<RTSPClientThreads>.fromOpaque(data).release() }
        })
        let pool = UnsafeMutableRawPointer(object).assumingMemoryBound(to: GstRTSPThreadPool.self)
        gst_rtsp_thread_pool_set_max_threads(pool, gint(maxThreads))
        return pool
    }

    /// The client closed: its thread is no longer its to be closed on.
    func forget(_ client: UnsafeMutablePointer<GstRTSPClient>) {
        let removed = contexts.withLock { $0.removeValue(forKey: UInt(bitPattern: client)) }
        if let removed { g_main_context_unref(removed.context) }
    }

    /// Shuts `client`'s connection down and closes the client on its own thread (at once when its thread is not
    /// known). Call with a reference to the client held; the close takes one of its own.
    func close(_ client: UnsafeMutablePointer<GstRTSPClient>) {
        if let connection = gst_rtsp_client_get_connection(client) {
            let read = gst_rtsp_connection_get_read_socket(connection)
            let write = gst_rtsp_connection_get_write_socket(connection)
            if let read { g_socket_shutdown(read, 1, 1, nil) }
            if let write, write != read { g_socket_shutdown(write, 1, 1, nil) }
        }
        let context = contexts.withLock { contexts -> OpaquePointer? in
            contexts[UInt(bitPattern: client)].map { g_main_context_ref($0.context) }
        }
        guard let context else { return gst_rtsp_client_close(client) }
        defer { g_main_context_unref(context) }
        let idle = g_idle_source_new()!
        g_object_ref(client)
        g_source_set_callback(idle, { data in
            if let data { gst_rtsp_client_close(data.assumingMemoryBound(to: GstRTSPClient.self)) }
            return 0
        }, client, { data in
            if let data { g_object_unref(data) }
        })
        g_source_attach(idle, context)
        g_source_unref(idle)
    }

    private func record(_ client: UnsafeMutablePointer<GstRTSPClient>, context: OpaquePointer) {
        let replaced = contexts.withLock { $0.updateValue(Context(context: g_main_context_ref(context)), forKey: UInt(bitPattern: client)) }
        if let replaced { g_main_context_unref(replaced.context) }
    }

    private static let ownerKey = "gstcam-client-threads"

    /// A GstRTSPThreadPool subclass whose get_thread records a client's thread; registered once, on first use.
    private static let poolType = registerGObjectSubclass(of: gst_rtsp_thread_pool_get_type(), named: "GstCamClientThreadPool") { poolClass, _ in
        poolClass?.assumingMemoryBound(to: GstRTSPThreadPoolClass.self).pointee.get_thread = { pool, type, context in
            let parentClass = g_type_class_peek(gst_rtsp_thread_pool_get_type())?.assumingMemoryBound(to: GstRTSPThreadPoolClass.self)
            guard let pool, let getThread = parentClass?.pointee.get_thread,
                  let thread = getThread(pool, type, context) else { return nil }
            if type == GST_RTSP_THREAD_TYPE_CLIENT, let client = context?.pointee.client, let threadContext = thread.pointee.context,
               let owner = g_object_get_data(UnsafeMutableRawPointer(pool).assumingMemoryBound(to: GObject.self), ownerKey) {
                Unmanaged<RTSPClientThreads>.fromOpaque(owner).takeUnretainedValue().record(client, context: threadContext)
            }
            return thread
        }
    }
}
