import Testing
@testable import ProductCatalog
import TestSupport

/// The bitmap of changed places against a plain set, on random places (word boundaries, a set
/// grown in any order, places asked past its end and below zero).
@Suite struct PlaceSetTests {
    @Test(arguments: [1, 2, 3]) func placesAreTheModelsSet(seed: UInt64) {
        var random = SeededRandomGenerator(seed: seed)
        var places = PlaceSet()
        var model = Set<Int64>()
        let range: Int64 = [70, 1_000, 100_000][Int(seed - 1)]
        for _ in 0..<Int(range / 3) {
            let place = Int64.random(in: 0...range, using: &random)
            places.insert(place)
            model.insert(place)
        }
        #expect(places.count == model.count && places.isEmpty == model.isEmpty)
        for place in -2...(range + 130) { #expect(places.contains(place) == model.contains(place), "place \(place)") }
        #expect(PlaceSet().isEmpty && !PlaceSet().contains(0))
    }
}
