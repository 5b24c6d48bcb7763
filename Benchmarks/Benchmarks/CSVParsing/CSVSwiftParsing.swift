// In a file of its own: CSV.swift and ProductCatalog both name a type `CSVReader`, and imports
// are per file.
import CSV
import Foundation

/// Reads the file at `path` with yaslab/CSV.swift; returns the records read and their field bytes.
func parseWithCSVSwift(path: String) throws -> (records: Int, fieldBytes: Int) {
    guard let stream = InputStream(fileAtPath: path) else {
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path])
    }
    let reader = try CSVReader(stream: stream, hasHeaderRow: false)
    var records = 0
    var fieldBytes = 0
    while let row = reader.next() {
        records += 1
        for field in row { fieldBytes &+= field.utf8.count }
    }
    // On Linux, Foundation's InputStream still says it has bytes at the end of a file, so
    // CSV.swift's last read comes back empty and it records `cannotReadFile` after the last row.
    // That is the end of the file, not a failure: the caller checks that every row was read.
    if let error = reader.error, !isEndOfStream(error) { throw error }
    return (records, fieldBytes)
}

private func isEndOfStream(_ error: any Error) -> Bool {
    guard let error = error as? CSVError, case .cannotReadFile = error else { return false }
    return true
}
