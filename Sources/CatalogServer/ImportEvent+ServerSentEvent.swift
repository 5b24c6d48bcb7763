import ProductCatalog

extension ImportEvent {
    /// The event framed for a `text/event-stream`: `id`, `event` and one `data` line of JSON.
    public func serverSentEvent(id: Int) -> String {
        "id: \(id)\nevent: \(name)\ndata: \(jsonValue.serialized)\n\n"
    }
}
