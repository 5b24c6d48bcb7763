import Testing
@testable import FeedGenerator
@testable import ProductCatalog

@Suite("ProductIdScheme")
struct ProductIdSchemeTests {
    @Test func thePermutationIsABijectionOnItsDomain() {
        for bits in [1, 2, 3, 7, 12, 16] {
            for seed: UInt64 in [0, 1, 42] {
                let permutation = IndexPermutation(bits: bits, seed: seed)
                let size = 1 << bits
                var seen = [Bool](repeating: false, count: size)
                var outside = 0
                for index in 0..<size {
                    let image = Int(permutation(UInt64(index)))
                    if image < size { seen[image] = true } else { outside += 1 }
                }
                #expect(outside == 0 && seen.allSatisfy { $0 }, "bits \(bits), seed \(seed)")
            }
        }
    }

    @Test func theDomainGrowsOnlyPast2To27Rows() {
        #expect(IndexPermutation.bits(toHold: 0, minimumBits: 27) == 27)
        #expect(IndexPermutation.bits(toHold: 100_000_000, minimumBits: 27) == 27)
        #expect(IndexPermutation.bits(toHold: 1 << 27, minimumBits: 27) == 27)
        #expect(IndexPermutation.bits(toHold: (1 << 27) + 1, minimumBits: 27) == 28)
    }

    /// The heart of the uniqueness argument: a prefix followed by a digit names one family.
    @Test func noPrefixFollowedByADigitStartsAnotherPrefix() {
        let prefixes = ProductIdScheme.families.map { $0.prefix.uppercased() }
        #expect(Set(prefixes).count == prefixes.count)
        for shorter in prefixes {
            for longer in prefixes where longer != shorter && longer.hasPrefix(shorter) {
                let next = longer.utf8[longer.utf8.index(longer.utf8.startIndex, offsetBy: shorter.utf8.count)]
                #expect(!(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next), "\(shorter) starts \(longer)")
            }
        }
    }

    @Test func suffixesNeverStartWithADigitOrAHyphenFollowedByADigit() {
        for family in ProductIdScheme.families {
            for suffix in family.suffixes where !suffix.isEmpty {
                #expect(!suffix.first!.isNumber, "\(family.prefix) \(suffix)")
                #expect(!(suffix.first == "-" && suffix.dropFirst().first?.isNumber == true), "\(family.prefix) \(suffix)")
            }
        }
    }

    @Test(arguments: [27, 34, 60])
    func idsReadBackToTheirProductNumberAcrossTheDomain(bits: Int) {
        let encoder = ProductRowEncoder(rows: 0, seed: 1)
        var random = SplitMix64(seed: UInt64(bits))
        let mask: UInt64 = (1 << UInt64(bits)) - 1
        var products: [UInt64] = [0, 1, 15, 16, mask, mask - 15]
        for _ in 0..<5_000 { products.append(random.next() & mask) }
        let misread = products.map(encoder.productId).filter { id in
            let product = ProductIdScheme.decode(id)
            return product == nil || ProductIdScheme.decode(id.lowercased()) != product
                || encoder.productId(product!) != id
        }
        #expect(misread.isEmpty)
    }

    @Test func decodingRejectsIdsNoFamilyMakes() {
        for id in ["", "SKU-", "QQ-123", "AB-0123", "MX-1234567", "MX-1234-56", "ABC-12345-Q", "SKU-1234567"] {
            #expect(ProductIdScheme.decode(id) == nil, "\(id)")
        }
    }
}
