import Foundation
#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
#else
import Darwin
private let systemRead = Darwin.read
#endif

extension FileHandle {
    /// The next bytes the pipe holds, waiting for some; empty at its end.
    ///
    /// Foundation's `availableData` and `readDataToEndOfFile()` stop the test process when a
    /// signal (a child's exit) interrupts their read; this read starts again instead.
    public func nextBytes() -> Data {
        var bytes = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = bytes.withUnsafeMutableBytes { systemRead(fileDescriptor, $0.baseAddress, $0.count) }
            if count >= 0 { return Data(bytes[..<count]) }
            if errno != EINTR { return Data() }
        }
    }

    /// Every byte until the pipe's end.
    public func bytesToEnd() -> Data {
        var all = Data()
        while case let data = nextBytes(), !data.isEmpty { all += data }
        return all
    }
}
