import Foundation

/// What the in-memory index keeps about one stored document: enough to filter and to boost without SQL.
struct DocumentRecord: Sendable, Equatable {
    var rowid: Int64
    var externalID: String
    var language: String
    var sourceType: String?
    var tags: [String]
    var category: String?
    /// Seconds since 1970.
    var createdAt: Double
    var metadata: [String: String]
}

/// The documents of the in-memory index, by dense slot (reused after deletion), with filter attributes
/// interned to integers so that building a filter mask is a tight loop over small integers.
struct DocumentTable: Sendable {
    private(set) var records: [DocumentRecord?] = []
    private(set) var slotByRowid: [Int64: Int32] = [:]
    private var freeSlots: [Int32] = []

    // Interned attributes, by slot. `-1` means "absent".
    private var languageCodes: [Int32] = []
    private var sourceTypeCodes: [Int32] = []
    private var categoryCodes: [Int32] = []
    private var createdAts: [Double] = []
    private var tagCodes: [[Int32]] = []
    private var metadataCodes: [[Int64]] = []
    private var interner: [String: Int32] = [:]

    /// The number of live documents.
    var count: Int { slotByRowid.count }
    /// One past the highest slot ever used: the size of per-slot arrays.
    var capacity: Int { records.count }

    /// Live documents per language (lower-cased code).
    private var languageCounts: [String: Int] = [:]

    /// The language most documents are in (ties: the first by name), or `nil` for an empty table or one whose
    /// documents are all undetermined.
    var dominantLanguage: String? {
        languageCounts.filter { $0.key != "und" && $0.value > 0 }
            .max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key
    }

    func slot(ofRowid rowid: Int64) -> Int32? { slotByRowid[rowid] }

    func record(atSlot slot: Int32) -> DocumentRecord? {
        Int(slot) < records.count ? records[Int(slot)] : nil
    }

    /// Inserts or replaces the record for `record.rowid`, returning its slot.
    @discardableResult
    mutating func upsert(_ record: DocumentRecord) -> Int32 {
        let slot: Int32
        if let existing = slotByRowid[record.rowid] {
            slot = existing
        } else if let reused = freeSlots.popLast() {
            slot = reused
        } else {
            slot = Int32(records.count)
            records.append(nil)
            languageCodes.append(-1)
            sourceTypeCodes.append(-1)
            categoryCodes.append(-1)
            createdAts.append(0)
            tagCodes.append([])
            metadataCodes.append([])
        }
        let index = Int(slot)
        if let old = records[index] { languageCounts[old.language.lowercased(), default: 0] -= 1 }
        languageCounts[record.language.lowercased(), default: 0] += 1
        records[index] = record
        slotByRowid[record.rowid] = slot
        languageCodes[index] = intern("l", record.language.lowercased())
        sourceTypeCodes[index] = record.sourceType.map { intern("s", $0.lowercased()) } ?? -1
        categoryCodes[index] = record.category.map { intern("c", $0.lowercased()) } ?? -1
        createdAts[index] = record.createdAt
        tagCodes[index] = Array(Set(record.tags.map { intern("t", $0.lowercased()) })).sorted()
        metadataCodes[index] = record.metadata.map { Self.pair(intern("k", $0.key), intern("v", $0.value)) }.sorted()
        return slot
    }

    /// Removes the record for `rowid`, returning the freed slot.
    @discardableResult
    mutating func remove(rowid: Int64) -> Int32? {
        guard let slot = slotByRowid.removeValue(forKey: rowid) else { return nil }
        let index = Int(slot)
        if let old = records[index] { languageCounts[old.language.lowercased(), default: 0] -= 1 }
        records[index] = nil
        tagCodes[index] = []
        metadataCodes[index] = []
        languageCodes[index] = -1
        sourceTypeCodes[index] = -1
        categoryCodes[index] = -1
        freeSlots.append(slot)
        return slot
    }

    private mutating func intern(_ namespace: String, _ value: String) -> Int32 {
        let key = namespace + ":" + value
        if let code = interner[key] { return code }
        let code = Int32(interner.count)
        interner[key] = code
        return code
    }

    private func code(_ namespace: String, _ value: String) -> Int32? {
        interner[namespace + ":" + value]
    }

    private static func pair(_ key: Int32, _ value: Int32) -> Int64 {
        (Int64(key) << 32) | Int64(UInt32(bitPattern: value))
    }

    /// The slots of the live documents that pass `filter`; `nil` when the filter is empty (every live
    /// document passes).
    ///
    /// - Complexity: O(documents × predicates), integer comparisons only.
    func mask(for filter: SearchFilter) -> Bitset? {
        if filter.isEmpty { return nil }
        // Compile the filter's strings into codes; an unknown string can match nothing.
        let impossible: Int32 = -2
        func codes(_ namespace: String, _ values: [String]) -> Set<Int32>? {
            values.isEmpty ? nil : Set(values.map { code(namespace, $0.lowercased()) ?? impossible })
        }
        let languages = codes("l", filter.languages)
        let sourceTypes = codes("s", filter.sourceTypes)
        let categories = codes("c", filter.categories)
        let anyTags = codes("t", filter.tagsAny)
        let allTags = codes("t", filter.tagsAll)
        let metadata: [Int64] = filter.metadata.map { entry in
            guard let key = code("k", entry.key), let value = code("v", entry.value) else { return -1 }
            return Self.pair(key, value)
        }
        let after = filter.createdAfter?.timeIntervalSince1970
        let before = filter.createdBefore?.timeIntervalSince1970

        var mask = Bitset(count: records.count)
        for index in 0..<records.count where records[index] != nil {
            if let languages, !languages.contains(languageCodes[index]) { continue }
            if let sourceTypes, !sourceTypes.contains(sourceTypeCodes[index]) { continue }
            if let categories, !categories.contains(categoryCodes[index]) { continue }
            if let after, createdAts[index] < after { continue }
            if let before, createdAts[index] >= before { continue }
            if let anyTags, !tagCodes[index].contains(where: anyTags.contains) { continue }
            if let allTags, !allTags.allSatisfy(tagCodes[index].contains) { continue }
            if !metadata.isEmpty, !metadata.allSatisfy(metadataCodes[index].contains) { continue }
            if !filter.excludedIDs.isEmpty, let record = records[index], filter.excludedIDs.contains(record.externalID)
            {
                continue
            }
            mask.insert(index)
        }
        return mask
    }
}

extension DocumentTable {
    /// The slots of every live document.
    var liveSlots: Bitset { Bitset(count: records.count) { records[$0] != nil } }
}
