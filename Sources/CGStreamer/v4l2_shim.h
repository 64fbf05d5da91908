// V4L2 shims: the VIDIOC_* request numbers and fourccs are macros built from _IOWR/v4l2_fourcc, which
// Swift cannot import. Glibc.ioctl itself is importable; only the numbers live here.
#ifndef GSTCAM_V4L2_SHIM_H
#define GSTCAM_V4L2_SHIM_H

#include <linux/videodev2.h>
#include <sys/ioctl.h>

// Request numbers for Glibc.ioctl(fd, UInt, ptr).
static inline unsigned long gstcam_vidioc_querycap(void) { return VIDIOC_QUERYCAP; }
static inline unsigned long gstcam_vidioc_enum_fmt(void) { return VIDIOC_ENUM_FMT; }
static inline unsigned long gstcam_vidioc_enum_framesizes(void) { return VIDIOC_ENUM_FRAMESIZES; }
static inline unsigned long gstcam_vidioc_enum_frameintervals(void) { return VIDIOC_ENUM_FRAMEINTERVALS; }
static inline unsigned long gstcam_vidioc_g_fmt(void) { return VIDIOC_G_FMT; }
static inline unsigned long gstcam_vidioc_query_ext_ctrl(void) { return VIDIOC_QUERY_EXT_CTRL; }
static inline unsigned long gstcam_vidioc_querymenu(void) { return VIDIOC_QUERYMENU; }
static inline unsigned long gstcam_vidioc_g_ext_ctrls(void) { return VIDIOC_G_EXT_CTRLS; }
static inline unsigned long gstcam_vidioc_s_ext_ctrls(void) { return VIDIOC_S_EXT_CTRLS; }
static inline unsigned long gstcam_vidioc_g_ctrl(void) { return VIDIOC_G_CTRL; }
static inline unsigned long gstcam_vidioc_s_ctrl(void) { return VIDIOC_S_CTRL; }

// V4L2_CTRL_FLAG_NEXT_CTRL / NEXT_COMPOUND are plain enum-like macros that Swift may import as Int32; kept
// here as unsigned so OR-ing them into a control id needs no casts.
static inline unsigned int gstcam_ctrl_flag_next_ctrl(void) { return V4L2_CTRL_FLAG_NEXT_CTRL; }
static inline unsigned int gstcam_ctrl_flag_next_compound(void) { return V4L2_CTRL_FLAG_NEXT_COMPOUND; }

// Fourccs are built by the v4l2_fourcc macro.
static inline unsigned int gstcam_fourcc_yuyv(void) { return V4L2_PIX_FMT_YUYV; }
static inline unsigned int gstcam_fourcc_nv12(void) { return V4L2_PIX_FMT_NV12; }
static inline unsigned int gstcam_fourcc_mjpeg(void) { return V4L2_PIX_FMT_MJPEG; }
static inline unsigned int gstcam_fourcc_jpeg(void) { return V4L2_PIX_FMT_JPEG; }
static inline unsigned int gstcam_fourcc_rgb24(void) { return V4L2_PIX_FMT_RGB24; }
static inline unsigned int gstcam_fourcc_grey(void) { return V4L2_PIX_FMT_GREY; }

// ---- VirtualCamera tests (issue 3): buffer-queue and event request numbers ----
static inline unsigned long gstcam_vidioc_s_fmt(void) { return VIDIOC_S_FMT; }
static inline unsigned long gstcam_vidioc_reqbufs(void) { return VIDIOC_REQBUFS; }
static inline unsigned long gstcam_vidioc_querybuf(void) { return VIDIOC_QUERYBUF; }
static inline unsigned long gstcam_vidioc_qbuf(void) { return VIDIOC_QBUF; }
static inline unsigned long gstcam_vidioc_dqbuf(void) { return VIDIOC_DQBUF; }
static inline unsigned long gstcam_vidioc_streamon(void) { return VIDIOC_STREAMON; }
static inline unsigned long gstcam_vidioc_streamoff(void) { return VIDIOC_STREAMOFF; }
static inline unsigned long gstcam_vidioc_subscribe_event(void) { return VIDIOC_SUBSCRIBE_EVENT; }
static inline unsigned long gstcam_vidioc_dqevent(void) { return VIDIOC_DQEVENT; }
static inline unsigned long gstcam_vidioc_expbuf(void) { return VIDIOC_EXPBUF; }
// ---- end VirtualCamera tests ----

#endif
