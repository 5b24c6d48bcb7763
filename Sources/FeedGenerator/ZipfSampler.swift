/// Draws ranks `0..<count` with Zipf-like frequencies: rank `r` about `(r + 1)^-exponent` as often as rank 0.
///
/// Only exponents whose powers come from square roots (0.5, 0.75, 1) are offered: `sqrt` is
/// exactly rounded on every machine, where `pow` may differ in its last bit, so a seed gives the
/// same ranks everywhere.
struct ZipfSampler {
    enum Exponent {
        case half, threeQuarters, one

        func power(_ x: Double) -> Double {
            switch self {
            case .half: x.squareRoot()
            case .threeQuarters: x.squareRoot() * x.squareRoot().squareRoot()
            case .one: x
            }
        }
    }

    /// The running sums of the weights: `cumulative[r]` is the weight of ranks `0...r`.
    private let cumulative: [Double]

    init(count: Int, exponent: Exponent) {
        precondition(count > 0, "a sampler needs at least one rank")
        var sums = [Double](repeating: 0, count: count)
        var total = 0.0
        for rank in 0..<count {
            total += 1 / exponent.power(Double(rank + 1))
            sums[rank] = total
        }
        cumulative = sums
    }

    var count: Int { cumulative.count }

    /// A rank, from 53 of `random`'s bits.
    func next(_ random: inout SplitMix64) -> Int {
        let target = Double(random.next() >> 11) * 0x1p-53 * cumulative[cumulative.count - 1]
        var low = 0
        var high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] <= target { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The share of draws that give rank `rank`.
    func share(of rank: Int) -> Double {
        (cumulative[rank] - (rank > 0 ? cumulative[rank - 1] : 0)) / cumulative[cumulative.count - 1]
    }
}
