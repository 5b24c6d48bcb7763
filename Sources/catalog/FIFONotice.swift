import ProductCatalog

/// What the CLI says before it reads a FIFO, whose opening waits, silently and for as long as it
/// takes, until another program opens it for writing.
enum FIFONotice {
    /// Tells the user, on standard error, that `argument` is a FIFO being waited on, if it is one.
    static func announce(_ argument: String) {
        guard argument != "-", FileByteSource.isFIFO(argument) else { return }
        Terminal.standardError.write("\(argument) is a FIFO (named pipe): waiting for a program to write to it. Press Ctrl-C to stop.\n")
    }
}
