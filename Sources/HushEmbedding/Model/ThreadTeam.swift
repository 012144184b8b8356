import HushKernels

/// A fork-join team of threads for one latency-bound job at a time (HushKernels' `hush_team`).
///
/// The caller is member 0; the other members are threads that spin between steps for a fraction of a
/// millisecond before they sleep, so a step costs about a microsecond instead of two thread wake-ups. A
/// single query's encoder runs about a hundred such steps.
///
/// ```swift
/// let team = ThreadTeam(size: 2)
/// team?.run { member, members in print("member \(member) of \(members)") }
/// ```
final class ThreadTeam: @unchecked Sendable {
    // Sendable: `run` is called by one thread at a time (its owner holds a lock around it); the C team
    // synchronises its own members.
    private let team: OpaquePointer
    /// Members, the caller included.
    let size: Int

    /// Starts `size - 1` worker threads. Nil when `size` is below 2 or no thread could be started.
    init?(size: Int) {
        guard size > 1, let team = hush_team_create(size) else { return nil }
        guard hush_team_size(team) > 1 else {
            hush_team_destroy(team)
            return nil
        }
        self.team = team
        self.size = hush_team_size(team)
    }

    deinit { hush_team_destroy(team) }

    /// Runs `body(member, members)` on every member at once and returns when all have finished.
    ///
    /// `body` runs concurrently on the team's threads: each member must write only its own share of any
    /// shared buffer.
    func run(_ body: (_ member: Int, _ members: Int) -> Void) {
        withoutActuallyEscaping(body) { body in
            var job = body
            withUnsafeMutablePointer(to: &job) { pointer in
                hush_team_run(
                    team,
                    { context, member, members in
                        guard let job = context?.assumingMemoryBound(to: ((Int, Int) -> Void).self) else { return }
                        job.pointee(member, members)
                    }, pointer)
            }
        }
    }
}
