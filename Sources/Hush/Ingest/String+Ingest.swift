extension String {
    /// The string without leading and trailing whitespace and line breaks (a fast, Foundation-free trim).
    var trimmedWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        if first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex { return self }
        return String(scalars[first...last])
    }

    /// Decodes UTF-8 bytes, or returns `nil` when they are not valid UTF-8.
    init?<Bytes: Collection>(validUTF8 bytes: Bytes) where Bytes.Element == UInt8 {
        let decoded = String(decoding: bytes, as: UTF8.self)
        // Decoding repairs invalid sequences with U+FFFD, so the bytes differ exactly when they were invalid.
        guard decoded.utf8.elementsEqual(bytes) else { return nil }
        self = decoded
    }
}
