import Foundation
import Testing

/// One event of a `text/event-stream` body.
struct ServerSentEvent {
    var id: Int
    var name: String
    var data: [String: Any]

    /// Parses a whole `text/event-stream` body: blocks of `field: value` lines separated by a blank line.
    static func parse(_ text: String) throws -> [ServerSentEvent] {
        try text.components(separatedBy: "\n\n").filter { !$0.isEmpty }.map { block in
            var fields: [String: String] = [:]
            for line in block.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                fields[String(parts[0])] = parts.count > 1 ? String(parts[1].dropFirst()) : ""
            }
            let data = try #require(fields["data"]?.data(using: .utf8), "an event without data: \(block)")
            return ServerSentEvent(
                id: try #require(fields["id"].flatMap { Int($0) }, "an event without an id: \(block)"),
                name: try #require(fields["event"], "an event without a name: \(block)"),
                data: try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]))
        }
    }
}
