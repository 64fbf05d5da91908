import CGStreamer

/// Registers a subclass of the GObject type `parent`, named `name`, that adds no fields of its own: `classInit`
/// replaces some of the parent's virtual functions (gst-rtsp-server's extension points are class vfuncs).
func registerGObjectSubclass(of parent: GType, named name: String, classInit: GClassInitFunc) -> GType {
    var parentSizes = GTypeQuery()
    g_type_query(parent, &parentSizes)
    return g_type_register_static_simple(parent, name, parentSizes.class_size, classInit, parentSizes.instance_size, nil,
                                         GTypeFlags(rawValue: 0))
}
