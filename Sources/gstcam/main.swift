import GstcamCommands

// gstcam: a camera on the command line. `serve` runs gstcam-serve (ServeLauncher).
Interrupt.install()  // here, on the main thread, first: see Interrupt.install
GstcamMain.start(Array(CommandLine.arguments.dropFirst()), serve: ServeLauncher.self)
