import Foundation
import Hush
import HushToolSupport

/// The documents `hush list` and `hush export` go through: the ids a filter lets through, then the documents
/// themselves a page at a time.
enum DocumentSelection {
    /// The ids the `--filter` arguments let through, in `order`; says on standard error when the filter lets
    /// no stored document through.
    static func ids(of hush: HushStore, filters: [String], order: DocumentOrder) async throws -> [String] {
        let filter = try FilterParsing.filter(from: filters)
        let ids = try await hush.documentIDs(matching: filter, order: order)
        if ids.isEmpty, !filter.isEmpty { Console.error(FilterParsing.noMatchNote(arguments: filters)) }
        return ids
    }

    /// Calls `body` with each stored document of `ids`, in order, reading 256 at a time and stopping between
    /// pages when the task is cancelled.
    static func forEach(_ ids: [String], of hush: HushStore, _ body: (StoredDocument) throws -> Void) async throws {
        for page in stride(from: 0, to: ids.count, by: 256) {
            try Task.checkCancellation()
            for stored in try await hush.documents(ids: Array(ids[page..<min(page + 256, ids.count)])) {
                try body(stored)
            }
        }
    }
}
