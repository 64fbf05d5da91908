// Placeholder: the virtual V4L2 camera (issue 3) is built here.
