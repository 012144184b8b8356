import Foundation
import Testing

@testable import HushEmbedding

/// The fork-join team that splits a single query over every core (also run under Thread Sanitizer).
@Suite struct ThreadTeamTests {
    /// Every member runs every step exactly once with its own index, and the caller sees the members' writes
    /// when `run` returns.
    @Test func everyMemberRunsEveryStepOnce() throws {
        for size in [2, 3] {
            let team = try #require(ThreadTeam(size: size))
            #expect(team.size == size)
            let totals = UnsafeMutableBufferPointer<Int>.allocate(capacity: size)
            let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: size)
            defer {
                totals.deallocate()
                counts.deallocate()
            }
            totals.initialize(repeating: 0)
            counts.initialize(repeating: 0)
            let steps = 20_000
            for step in 0..<steps {
                var seen = [Int](repeating: -1, count: size)
                seen.withUnsafeMutableBufferPointer { seen in
                    team.run { member, members in
                        totals[member] += step
                        counts[member] += members == size ? 1 : 1_000_000
                        seen[member] = step
                    }
                }
                if seen != [Int](repeating: step, count: size) {
                    Issue.record("step \(step) with \(size) members: \(seen)")
                    break
                }
            }
            #expect(Array(counts) == [Int](repeating: steps, count: size))
            #expect(Array(totals) == [Int](repeating: steps * (steps - 1) / 2, count: size))
        }
    }

    /// After a pause longer than the workers' spin window they sleep; the next step wakes them.
    @Test func sleepingWorkersWakeForTheNextStep() throws {
        let team = try #require(ThreadTeam(size: 2))
        for round in 0..<5 {
            Thread.sleep(forTimeInterval: 0.003)
            var members = [false, false]
            members.withUnsafeMutableBufferPointer { members in
                team.run { member, _ in members[member] = true }
            }
            #expect(members == [true, true], "round \(round)")
        }
    }

    @Test func aTeamNeedsTwoMembers() {
        #expect(ThreadTeam(size: 1) == nil)
        #expect(ThreadTeam(size: 0) == nil)
    }
}
