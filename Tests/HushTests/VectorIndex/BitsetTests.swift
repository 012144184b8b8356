import Testing

@testable import Hush

@Suite struct BitsetTests {
    /// The rows both allow, counted, whatever the other bitmap's size.
    @Test func intersectionKeepsTheRowsBothAllow() {
        let even = Bitset(count: 200) { $0 % 2 == 0 }
        let thirds = Bitset(count: 200) { $0 % 3 == 0 }
        let both = even.intersection(thirds)
        #expect(both.sorted() == Array(stride(from: 0, to: 200, by: 6)))
        #expect(both.allowedCount == 34 && both.count == 200)

        let shorter = Bitset(count: 70, allowAll: true)
        #expect(even.intersection(shorter).sorted() == Array(stride(from: 0, to: 70, by: 2)))
        #expect(shorter.intersection(even).count == 70)
        #expect(shorter.intersection(even).allowedCount == 35)
        #expect(even.intersection(Bitset(count: 200)).allowedCount == 0)
    }
}
