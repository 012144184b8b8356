import Foundation

/// Change detection for documents: 128-bit, non-cryptographic, stable across runs and platforms.
///
/// `textHash` covers what changes chunks and vectors (title, body, quote, fields, language and the
/// preparation settings); `contentHash` covers that plus every metadata field. Equal content hash: skip.
/// Equal text hash only: update the row, keep chunks and vectors.
struct ContentHash {
    private var a: UInt64 = 0xcbf2_9ce4_8422_2325
    private var b: UInt64 = 0x8422_2325_cbf2_9ce4

    private mutating func byte(_ value: UInt8) {
        a = (a ^ UInt64(value)) &* 0x0000_0100_0000_01b3
        b = (b ^ UInt64(value)) &* 0x9E37_79B9_7F4A_7C15
        b ^= b >> 29
    }

    /// Adds a length-prefixed field, so that field boundaries are part of the hash.
    mutating func add(_ text: String?) {
        guard let text else {
            byte(0xFF)
            return
        }
        let utf8 = Array(text.utf8)
        for shift in stride(from: 0, to: 64, by: 8) { byte(UInt8(truncatingIfNeeded: utf8.count >> shift)) }
        for value in utf8 { byte(value) }
    }

    var hex: String {
        func mix(_ value: UInt64) -> UInt64 {
            var z = value &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        return String(format: "%016llx%016llx", mix(a), mix(b ^ a))
    }

    static func text(of document: Document, preparation: String) -> String {
        var hash = ContentHash()
        hash.add(preparation)
        hash.add(document.title)
        hash.add(document.body)
        hash.add(document.quoted)
        hash.add(String(document.fields.count))
        for field in document.fields {
            hash.add(field.label)
            hash.add(field.value)
        }
        hash.add(document.language)
        // A record's fields are chunked one by one under its title and day (since 0.3): its chunks change with
        // the day, and a record stored before is cut again when it is next written.
        if !document.fields.isEmpty {
            hash.add("fields/2")
            hash.add(document.createdAt.map(RecordDate.formatDay))
        }
        return hash.hex
    }

    static func content(of document: Document, textHash: String) -> String {
        var hash = ContentHash()
        hash.add(textHash)
        hash.add(document.id)
        hash.add(document.sourceType)
        hash.add(String(document.tags.count))
        document.tags.forEach { hash.add($0) }
        hash.add(document.category)
        let metadata = document.metadata.sorted { $0.key < $1.key }
        hash.add(String(metadata.count))
        for (key, value) in metadata {
            hash.add(key)
            hash.add(value)
        }
        hash.add(document.createdAt.map { String($0.timeIntervalSince1970) })
        hash.add(document.updatedAt.map { String($0.timeIntervalSince1970) })
        return hash.hex
    }
}
