/// Memory that checked rows are encoded into, one at a time: room is reserved, the row is
/// written there in place, then kept.
///
/// The sort's arenas are such storage; the checker knows only this much of them.
protocol EncodedRowStorage: AnyObject {
    /// Room for `size` more bytes, or nil when there is not enough.
    func reserve(_ size: Int) -> UnsafeMutableRawPointer?
    /// Keeps the row just written at the reserved place.
    func commit()
}
