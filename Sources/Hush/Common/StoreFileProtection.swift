import Foundation

/// The data-protection class of a store's files, as ``StoreOptions/fileProtection`` sets it: when the system
/// lets the app read and write them while the device is locked.
///
/// A journal's entries are as private as anything on the phone, which argues for ``complete``; an app that
/// indexes in a `BGProcessingTask`, which often runs at night on a locked device, needs
/// ``completeUntilFirstUserAuthentication`` (the system's default for app files) or the background work
/// fails with an I/O error and resumes at the next unlock (every committed batch is kept).
///
/// ```swift
/// let store = try await HushStore.open(
///     path: url.path, model: .e5Small, options: StoreOptions(fileProtection: .completeUnlessOpen))
/// ```
public enum StoreFileProtection: String, Sendable, Hashable, Codable, CaseIterable {
    /// Unreadable from shortly after the device locks until it is unlocked: searches and writes of an
    /// app running in the background then fail, and a store cannot be opened. Index only in the foreground.
    case complete
    /// A store opened while the device was unlocked stays usable after it locks (its files are open); a
    /// new open while locked fails. Suits an app that finishes its indexing after the person locks the phone.
    case completeUnlessOpen
    /// Usable at any time once the device has been unlocked after starting: background indexing works. The
    /// system's default for an app's files.
    case completeUntilFirstUserAuthentication
    /// No protection beyond the device's encryption: readable even before the first unlock.
    case none

    /// Foundation's name for the class.
    var fileProtectionType: FileProtectionType {
        switch self {
        case .complete: .complete
        case .completeUnlessOpen: .completeUnlessOpen
        case .completeUntilFirstUserAuthentication: .completeUntilFirstUserAuthentication
        case .none: .none
        }
    }
}
