import GstcamCommands

// gstcam: a camera on the command line. `serve` runs gstcam-serve (ServeLauncher).
await GstcamMain.run(Array(CommandLine.arguments.dropFirst()), serve: ServeLauncher.self)
