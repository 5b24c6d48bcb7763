import ProductCatalog

/// What the server knows about one import: where it stands, its newest counters and how it ended.
struct ImportRecord: Sendable {
    /// Where an import stands.
    enum Status: String, Sendable {
        /// The CSV is still arriving.
        case uploading
        /// The importer is reading and writing.
        case running
        /// The new catalog is in place.
        case finished
        /// The import stopped; the catalog is as it was.
        case failed
    }

    /// An event with its place in the import's sequence, the SSE `id`.
    struct NumberedEvent: Sendable {
        var number: Int
        var event: ImportEvent
    }

    let id: Int
    var status: Status = .uploading
    /// The newest progress snapshot, if any arrived.
    private(set) var latestProgress: NumberedEvent?
    /// The `finished` or `failed` event, once the import is over.
    private(set) var final: NumberedEvent?
    private var eventCount = 0

    init(id: Int) {
        self.id = id
    }

    /// Records `event` and returns it numbered.
    mutating func append(_ event: ImportEvent) -> NumberedEvent {
        eventCount += 1
        let numbered = NumberedEvent(number: eventCount, event: event)
        switch event {
        case .progress: latestProgress = numbered
        case .finished, .stockFinished: final = numbered; status = .finished
        case .failed: final = numbered; status = .failed
        }
        return numbered
    }

    /// What a client that starts listening now needs to catch up: the newest snapshot and the end, if any.
    var replay: [NumberedEvent] {
        [latestProgress, final].compactMap { $0 }
    }

    var isOver: Bool { final != nil }

    /// True when the finished import rejected rows, so its rejects file can be downloaded.
    var hasRejects: Bool {
        switch final?.event {
        case .finished(let summary)?: summary.rejectsPath != nil
        case .stockFinished(let summary)?: summary.rejectsPath != nil
        default: false
        }
    }

    /// `{"id":1,"status":"running","eventsURL":…,"rejectsURL":…,"progress":{…},"result":{…}}`.
    var jsonValue: JSONValue {
        .object([
            "id": .int(id),
            "status": .string(status.rawValue),
            "eventsURL": .string("/api/imports/\(id)/events"),
            "rejectsURL": .string(hasRejects ? "/api/imports/\(id)/rejects" : nil),
            "progress": latestProgress?.event.jsonValue ?? .null,
            "result": final?.event.jsonValue ?? .null,
        ])
    }
}
