import Foundation
import Testing

@testable import HushEmbedding

/// The byte-string table both tokenizers look pieces up in: every key found with its id, a repeated key keeping
/// the id given last, absent and over-long candidates refused, on real pieces of several scripts.
@Suite struct VocabularyTableTests {
    static let pieces = [
        "▁the", "▁of", "ing", "s", "▁sleep", "▁insomnia", "失眠", "怎么", "办", "▁Schlaf", "losigkeit", "▁сон",
        "ница", "▁不", "##ing", "##s", "a", "é", "▁naïve", "🙂",
    ]

    static func lookup(_ table: VocabularyTable, _ key: String) -> Int32? {
        let bytes = Array(key.utf8)
        return bytes.withUnsafeBufferPointer { table.lookup($0, 0, bytes.count) }
    }

    @Test func everyPieceIsFoundWithItsIDAndNothingElseIs() {
        let table = VocabularyTable(entries: Self.pieces.enumerated().map { (Array($1.utf8), Int32($0)) })
        for (id, piece) in Self.pieces.enumerated() { #expect(Self.lookup(table, piece) == Int32(id), "\(piece)") }
        for absent in ["▁th", "the", "失", "ings", "", "▁insomni", "▁insomnias"] {
            #expect(Self.lookup(table, absent) == nil, "\(absent)")
        }
        #expect(table.longestKey == Self.pieces.map(\.utf8.count).max())
        // A candidate inside a longer buffer: only the given range is compared.
        let text = Array("x▁sleepy".utf8)
        let sleep = Array("▁sleep".utf8).count
        #expect(text.withUnsafeBufferPointer { table.lookup($0, 1, 1 + sleep) } == 4)
    }

    @Test func aRepeatedKeyKeepsTheIDGivenLast() {
        var entries = Self.pieces.enumerated().map { (key: Array($1.utf8), id: Int32($0)) }
        entries.append((Array("▁sleep".utf8), 100))
        entries.append((Array("失眠".utf8), 101))
        entries.append((Array("▁sleep".utf8), 102))
        let table = VocabularyTable(entries: entries)
        #expect(Self.lookup(table, "▁sleep") == 102)
        #expect(Self.lookup(table, "失眠") == 101)
        #expect(Self.lookup(table, "▁the") == 0)
    }

    /// Many keys (more than fit without probing): each still found, the table's buffers built in one pass.
    @Test func aLargeTableFindsEveryKey() {
        let keys = (0..<50_000).map { "piece\($0 * 7919 % 100_003)" }
        let table = VocabularyTable(entries: keys.enumerated().map { (Array($1.utf8), Int32($0)) })
        #expect(keys.indices.allSatisfy { Self.lookup(table, keys[$0]) == Int32($0) })
        #expect(Self.lookup(table, "piece100003") == nil)
    }
}
