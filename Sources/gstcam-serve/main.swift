import GstcamCommands

// gstcam-serve: gstcam with its serving code, which `gstcam serve` runs (GstcamCommands/ServeLauncher.swift).
Interrupt.install()  // here, on the main thread, first: see Interrupt.install
GstcamMain.start(Array(CommandLine.arguments.dropFirst()), serve: ServeCommand.self)
