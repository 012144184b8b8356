import Foundation
import Hush
import HushToolSupport

/// What to say after "no document with id …": the stored ids that id most likely meant. A file's id is its
/// path from the folder given to `hush index` (`notes/dentist.md`), so "dentist.md" is a common slip, and so
/// is another case.
enum UnknownIDHint {
    /// `" (did you mean "notes/dentist.md"?)"`, naming at most three stored ids whose last path component is
    /// `id`, that end with it after a `/`, or that equal it but for case; empty when none does.
    static func text(for id: String, in hush: HushStore) async -> String {
        let wanted = id.lowercased()
        guard !wanted.isEmpty, let ids = try? await hush.documentIDs(order: .id) else { return "" }
        let near = ids.filter { stored in
            let lowered = stored.lowercased()
            return lowered == wanted || lowered.hasSuffix("/" + wanted)
        }
        guard !near.isEmpty else { return "" }
        let named = near.prefix(3).map(JSONOutput.quoted).joined(separator: " or ")
        return " (did you mean \(named)\(near.count > 3 ? " or \(near.count - 3) more" : "")?)"
    }
}
