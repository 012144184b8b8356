/// The token ids of one text, with `[CLS]` first and `[SEP]` last.
///
/// ```swift
/// let tokens = tokenizer.encode("Hello, world!", maxLength: 256)
/// print(tokens.ids)  // [101, 7592, 1010, 2088, 999, 102]
/// ```
public struct TokenizedText: Sendable, Equatable {
    /// Token ids including the special tokens, at most `maxLength` of them.
    public var ids: [Int32]
    /// Whether tokens were dropped to fit `maxLength`.
    public var truncated: Bool
    /// How many ids the text would have without truncation, special tokens included.
    public var untruncatedCount: Int

    /// Creates a tokenized text from its parts.
    ///
    /// ```swift
    /// let text = TokenizedText(ids: [101, 102], truncated: false, untruncatedCount: 2)
    /// ```
    public init(ids: [Int32], truncated: Bool, untruncatedCount: Int) {
        self.ids = ids
        self.truncated = truncated
        self.untruncatedCount = untruncatedCount
    }
}

/// Several texts' token ids padded to the same length, ready for a batched encoder.
///
/// ```swift
/// let batch = tokenizer.encodeBatch(["a cat", "a very small cat"], maxLength: 256)
/// let row1 = batch.ids[batch.sequenceLength..<2 * batch.sequenceLength]
/// ```
public struct TokenBatch: Sendable, Equatable {
    /// `count * sequenceLength` ids, row-major, padded with the `[PAD]` id.
    public var ids: [Int32]
    /// 1 for a real token, 0 for padding, same layout as `ids`.
    public var attentionMask: [Int32]
    /// The unpadded length of each row.
    public var lengths: [Int]
    /// The length of every row: the longest text's length.
    public var sequenceLength: Int
    /// Whether each text was truncated.
    public var truncated: [Bool]

    /// The number of texts in the batch.
    ///
    /// ```swift
    /// let rows = batch.count
    /// ```
    public var count: Int { lengths.count }
}
