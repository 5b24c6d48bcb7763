import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A standard stream the CLI writes text to.
struct Terminal {
    let descriptor: Int32

    static let standardOutput = Terminal(descriptor: STDOUT_FILENO)
    static let standardError = Terminal(descriptor: STDERR_FILENO)

    /// True when a person is watching: the stream is a terminal.
    var isInteractive: Bool { isatty(descriptor) == 1 }

    /// Writes `text` for people to read, unbuffered: control characters in it are shown escaped
    /// (see ``Swift/String/visibleOnTerminal``), so text from a feed cannot drive the terminal.
    func write(_ text: String) {
        writeExactly(text.visibleOnTerminal)
    }

    /// Writes `text` byte for byte, unbuffered: for JSON (which escapes control characters itself)
    /// and the progress line's own cursor codes.
    func writeExactly(_ text: String) {
        var text = text
        // A closed terminal or pipe is not worth failing the command for.
        _ = text.withUTF8 { try? FileDescriptor(rawValue: descriptor).writeAll($0) }
    }
}
