// One `import GstCamera` gives the whole public API: the layers below are separate targets (Package.swift,
// docs/architecture.md), re-exported here so that users need not know how the library is cut.
@_exported import CameraErrors
@_exported import Cameras
@_exported import Controls
@_exported import MediaFiles
@_exported import Session
// Kernel-level value types that appear in the public API (modes, control values); the V4L2 device itself stays
// inside.
@_exported import struct V4L2.FrameRate
@_exported import struct V4L2.PixelFormat
@_exported import enum V4L2.ControlValue
@_exported import struct V4L2.ControlRectangle
@_exported import struct V4L2.ControlArea
@_exported import struct V4L2.ControlArray
@_exported import struct V4L2.ControlType
// The frame format of preview frames.
@_exported import struct GStreamer.VideoFormat
