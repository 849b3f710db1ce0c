import Foundation
import Testing
@testable import ContactsDB
@testable import ContactsDBSync

/// The sync's rules as values: what a pulled card does to the contact
/// here, and what each answer to a push means.
@Suite struct SyncDecisionTests {
    let base = ContactDraft(id: "a", firstName: "Anna", lastName: "Petrova")

    func decide(isSynced: Bool = true, base: ContactDraft?, agreed: Int? = 5, local: ContactDraft?, localRevision: Int = 5,
                server: ContactDraft, prefer: SyncPreference = .server) -> PullDecision {
        PullDecision.decide(isSynced: isSynced, base: base, agreedRevision: agreed, local: local.map { ($0, localRevision) },
                            server: server, prefer: prefer)
    }

    @Test func aCardNeverSeenIsANewContact() {
        let decision = decide(isSynced: false, base: nil, agreed: nil, local: nil, server: base)
        #expect(decision == PullDecision(write: .insert(base)) && decision.counted == .new)
    }

    @Test func aDeletionHereOfACardUnchangedThereIsPushed() {
        let decision = decide(base: base, local: nil, server: base)
        #expect(decision == PullDecision(revision: 5, keepsAgreedBase: true))
    }

    @Test func anEditThereBeatsADeletionHere() {
        var server = base
        server.note = "moved"
        let decision = decide(base: base, local: nil, server: server)
        #expect(decision.write == .insert(server) && decision.counted == .changed)
        #expect(decision.conflict?.kept == .server && decision.conflict?.properties == [] && decision.conflict?.losing == nil)
    }

    @Test func anEditThereReplacesAContactUnchangedHere() {
        var server = base
        server.company = "Acme"
        let decision = decide(base: base, local: base, localRevision: 5, server: server)
        #expect(decision == PullDecision(write: .replace(server)) && decision.counted == .changed)
    }

    @Test func anEditHereOfACardUnchangedThereIsPushed() {
        var local = base
        local.company = "Acme"
        let decision = decide(base: base, local: local, localRevision: 7, server: base)
        #expect(decision == PullDecision(revision: 5))
    }

    @Test func editsOfDifferentPropertiesMergeAndTheMergeIsPushed() {
        var local = base, server = base
        local.company = "Acme"
        server.note = "met in Kazan"
        var merged = base
        merged.company = "Acme"
        merged.note = "met in Kazan"
        let decision = decide(base: base, local: local, localRevision: 7, server: server)
        #expect(decision == PullDecision(write: .replace(merged), revision: 5))
    }

    @Test(arguments: SyncPreference.allCases)
    func editsOfOnePropertyKeepThePreferredSideAndRecordTheOther(_ prefer: SyncPreference) {
        var local = base, server = base
        local.lastName = "Local"
        server.lastName = "Server"
        let decision = decide(base: base, local: local, localRevision: 7, server: server, prefer: prefer)
        #expect(decision.conflict?.kept == prefer && decision.conflict?.properties == ["lastName"])
        #expect(decision.conflict?.losing == (prefer == .server ? local : server))
        if prefer == .server {
            #expect(decision.write == .replace(server) && decision.revision == nil)
        } else {
            #expect(decision.write == .nothing && decision.revision == 5, "the local version is pushed")
        }
    }

    @Test func theSameEditOnBothSidesIsNoConflictAndNothingToDo() {
        var both = base
        both.company = "Acme"
        let decision = decide(base: base, local: both, localRevision: 7, server: both)
        #expect(decision == PullDecision(revision: 7))
    }

    @Test func withoutABaseEveryDifferenceIsTheServersOrAConflict() {
        var local = base
        local.company = "Acme"
        let decision = decide(isSynced: false, base: nil, agreed: nil, local: local, localRevision: 3, server: base)
        #expect(decision.conflict?.properties == ["company"])
    }

    @Test func thePushTheServerHoldsIsTheAgreedVersion() {
        var one = base, two = base
        one.lastName = "One"
        two.lastName = "Two"
        #expect(PullDecision.agreed(recordHasBase: true, pushes: [one, two], server: two) == .push(1))
        #expect(PullDecision.agreed(recordHasBase: true, pushes: [one, two], server: base) == .record)
        #expect(PullDecision.agreed(recordHasBase: false, pushes: [one, two], server: base) == .firstPushBase)
        #expect(PullDecision.agreed(recordHasBase: false, pushes: [], server: base) == .record)
    }

    @Test func aRemovalDeletesOnlyWhatDidNotChangeHere() {
        #expect(RemovalDecision.decide(agreedRevision: 5, localRevision: 5) == .deleteContact)
        #expect(RemovalDecision.decide(agreedRevision: 5, localRevision: 6) == .keepEdited)
        #expect(RemovalDecision.decide(agreedRevision: nil, localRevision: 6) == .forgetRecord, "never on the server")
        #expect(RemovalDecision.decide(agreedRevision: 5, localRevision: nil) == .forgetRecord, "gone here too")
    }

    @Test(arguments: [
        (200, true, PushOutcome.stored), (201, true, .stored), (204, false, .stored),
        (412, false, .changedThere), (412, true, .changedThere), (404, false, .changedThere), (404, true, .refused(404)),
        (403, false, .refused(403)), (409, true, .refused(409)), (423, false, .refused(423)), (507, false, .refused(507)),
    ])
    func eachAnswerToAPut(_ status: Int, _ isNew: Bool, _ outcome: PushOutcome) {
        #expect(PushOutcome.ofPut(status: status, isNew: isNew) == outcome)
    }

    @Test(arguments: [
        (200, PushOutcome.stored), (204, .stored), (404, .alreadyGone), (410, .alreadyGone), (412, .changedThere),
        (403, .refused(403)), (423, .refused(423)),
    ])
    func eachAnswerToADelete(_ status: Int, _ outcome: PushOutcome) {
        #expect(PushOutcome.ofDelete(status: status) == outcome)
    }
}
