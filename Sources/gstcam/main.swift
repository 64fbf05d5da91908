import GstcamCommands

// gstcam: a camera on the command line. `serve` runs gstcam-serve (ServeLauncher).
Interrupt.install()  // here, on the main thread, before any await: see Interrupt.install
await GstcamMain.run(Array(CommandLine.arguments.dropFirst()), serve: ServeLauncher.self)
