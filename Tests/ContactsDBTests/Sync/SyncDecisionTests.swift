import Foundation
import Testing
@testable import ContactsDB
@testable import ContactsDBSync

/// The sync's rules as values: what a listing asks a pull to fetch and
/// remove, which contact a pulled card is, what a pulled card does to the
/// contact here, whether and how a push sends a contact, and what each
/// answer to a push means.
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

    // MARK: - Listing

    @Test func aListingWantsTheCardsUnknownHereOrListedWithAnotherETagOrNone() {
        let listing = CardListing(members: [("/ab/same.vcf", "1"), ("/ab/changed.vcf", "3"), ("/ab/new.vcf", "4"),
                                            ("/ab/untagged.vcf", nil)], isComplete: false)
        // A server that sends no ETags: the card may have changed.
        let plan = ListingPlan.make(listing, known: ["/ab/same.vcf": "1", "/ab/changed.vcf": "2", "/ab/untagged.vcf": nil],
                                    unconfirmed: [:])
        #expect(plan.wanted == ["/ab/changed.vcf", "/ab/new.vcf", "/ab/untagged.vcf"])
        #expect(plan.new == 1 && plan.removed.isEmpty && plan.confirmed.isEmpty)
    }

    @Test func aWholeListingRemovesEveryKnownCardItLacksAPartialOneOnlyWhatItNames() {
        let known: [String: String?] = ["/ab/kept.vcf": "1", "/ab/gone.vcf": "2", "/ab/named.vcf": "3"]
        let whole = ListingPlan.make(CardListing(members: [("/ab/kept.vcf", "1")], isComplete: true), known: known, unconfirmed: [:])
        #expect(whole.removed == ["/ab/gone.vcf", "/ab/named.vcf"] && whole.wanted.isEmpty)
        let partial = ListingPlan.make(CardListing(removed: ["/ab/named.vcf", "/ab/never-known.vcf"], isComplete: false),
                                       known: known, unconfirmed: [:])
        #expect(partial.removed == ["/ab/named.vcf"], "a card never known here is nothing to remove")
    }

    @Test func aPushedCardArrivedOnlyWhenListedWithTheETagItsAnswerGave() {
        let unconfirmed: [String: (contactId: String, etag: String?, isNew: Bool)] = ["/ab/c1.vcf": ("c1", "e1", true), "/ab/c2.vcf": ("c2", "e2", true)]
        let listing = CardListing(members: [("/ab/c1.vcf", "e1"), ("/ab/c2.vcf", "other")], isComplete: true)
        let plan = ListingPlan.make(listing, known: [:], unconfirmed: unconfirmed)
        #expect(plan.confirmed == ["/ab/c1.vcf": "c1"])
        #expect(plan.wanted == ["/ab/c2.vcf"] && plan.new == 1, "another client's card at that href is pulled")
        #expect(plan.unlisted.isEmpty && plan.removed.isEmpty)
    }

    @Test func aPushedCardAWholeListingLacksIsPushedAgainAndOneTheServerSaysWentIsRemoved() {
        let unconfirmed: [String: (contactId: String, etag: String?, isNew: Bool)] = ["/ab/c1.vcf": ("c1", "e1", true)]
        let whole = ListingPlan.make(CardListing(isComplete: true), known: [:], unconfirmed: unconfirmed)
        #expect(whole.unlisted == ["/ab/c1.vcf": "c1"] && whole.removed.isEmpty, "it may never have arrived")
        let partial = ListingPlan.make(CardListing(removed: ["/ab/c1.vcf"], isComplete: false), known: [:], unconfirmed: unconfirmed)
        #expect(partial.removed == ["/ab/c1.vcf"] && partial.unlisted.isEmpty, "it arrived, and another client deleted it")
    }

    /// Issue 57: an answer to a token that names no removal and at least
    /// half the cards known here, or none under a new token, may be every
    /// card of a server that forgot the token (DAViCal); a few changes are not.
    @Test func anAnswerThatMayListEveryCardIsTold() {
        let known: Set<String> = ["/ab/a.vcf", "/ab/b.vcf", "/ab/c.vcf", "/ab/d.vcf"]
        let every = CardListing(members: [("/ab/a.vcf", "1"), ("/ab/c.vcf", "3")], token: "t2")
        #expect(every.mayListEverything(since: "t1", known: known))
        #expect(!CardListing(members: [("/ab/a.vcf", "9")], token: "t2").mayListEverything(since: "t1", known: known))
        #expect(!CardListing(members: every.members, removed: ["/ab/b.vcf"], token: "t2").mayListEverything(since: "t1", known: known))
        #expect(CardListing(token: "t2").mayListEverything(since: "t1", known: known), "emptied")
        #expect(!CardListing(token: "t1").mayListEverything(since: "t1", known: known), "nothing changed")
        #expect(!every.mayListEverything(since: "t1", known: []))
    }

    /// Issue 57: a fetched card is a push rewritten when only the spelling
    /// of what travels verbatim differs; and a card fetched after a PUT
    /// answered without an ETag is the push rewritten unless it still
    /// holds the version agreed before where the push changed it.
    @Test func aRewriteIsToldFromAnEditAndFromADroppedPut() {
        var pushed = ContactDraft(id: "a", firstName: "Anna")
        pushed.extra = ["item1.X-ABLabel:_$!<Other>!$_", "X-Custom;x-flavour=\"plum\":keep me"]
        var rewritten = pushed
        rewritten.extra = ["X-CUSTOM;X-FLAVOUR=PLUM:keep me", "ITEM1.X-ABLABEL:_$!<Other>!$_"]
        #expect(ContactMerge.isRespelling(rewritten, of: pushed))
        var edited = rewritten
        edited.extra[0] = "X-CUSTOM;X-FLAVOUR=PLUM:keep me too"
        #expect(!ContactMerge.isRespelling(edited, of: pushed), "a value is no spelling")
        edited = rewritten
        edited.note = "met in Kazan"
        #expect(!ContactMerge.isRespelling(edited, of: pushed))

        var before = pushed
        before.company = "Globex"
        var push = before
        push.company = "Acme"
        #expect(RewrittenPush.holds(push, over: before, fetched: { var d = push; d.extra = rewritten.extra; return d }()))
        #expect(!RewrittenPush.holds(push, over: before, fetched: before), "the PUT was dropped")
        #expect(RewrittenPush.holds(push, over: nil, fetched: before), "a new card has nothing before it")
    }

    /// Issue 56, item 9: a changed card's PUT answered as stored is still
    /// the server's old card until a listing shows the answer's ETag; a
    /// whole listing that lacks it says the server removed it.
    @Test func aChangedCardsPushArrivedOnlyWhenListedWithTheETagItsAnswerGave() {
        let unconfirmed: [String: (contactId: String, etag: String?, isNew: Bool)] =
            ["/ab/a.vcf": ("a", "e2", false), "/ab/b.vcf": ("b", "e5", false), "/ab/c.vcf": ("c", nil, false)]
        let known: [String: String?] = ["/ab/a.vcf": "e2", "/ab/b.vcf": "e5", "/ab/c.vcf": nil]
        let listing = CardListing(members: [("/ab/a.vcf", "e2"), ("/ab/b.vcf", "e1"), ("/ab/c.vcf", "e3")], isComplete: true)
        let plan = ListingPlan.make(listing, known: known, unconfirmed: unconfirmed)
        #expect(plan.confirmed == ["/ab/a.vcf": "a"])
        #expect(plan.wanted == ["/ab/b.vcf", "/ab/c.vcf"], "the old card, or one answered without an ETag, is fetched")
        let lacking = ListingPlan.make(CardListing(isComplete: true), known: known, unconfirmed: unconfirmed)
        #expect(lacking.unlisted.isEmpty && lacking.removed == ["/ab/a.vcf", "/ab/b.vcf", "/ab/c.vcf"])
    }

    @Test func aRemovalIsWeighedAgainstTheLastPushUnderWay() {
        #expect(RemovalDecision.agreedRevision(record: 5, hasBase: true, lastPush: 7) == 7)
        #expect(RemovalDecision.agreedRevision(record: 5, hasBase: true, lastPush: nil) == 5)
        #expect(RemovalDecision.agreedRevision(record: 0, hasBase: false, lastPush: 3) == 3)
        #expect(RemovalDecision.agreedRevision(record: 0, hasBase: false, lastPush: nil) == nil)
    }

    /// Issue 56, item 10: the parts of a truncated sync-collection answer
    /// are one listing in which the later part speaks for an href.
    @Test func anHrefInTwoPartsOfAListingIsWhatTheLaterPartSays() {
        let first = CardListing(members: [("/ab/made-then-gone.vcf", "1"), ("/ab/b.vcf", "2")], removed: ["/ab/gone-then-made.vcf"])
        let second = CardListing(members: [("/ab/gone-then-made.vcf", "3")], removed: ["/ab/made-then-gone.vcf", "/ab/c.vcf"])
        let listing = CardListing.joining([first, second], isComplete: false, token: "t2")
        #expect(listing.members.map(\.href) == ["/ab/b.vcf", "/ab/gone-then-made.vcf"])
        #expect(listing.removed == ["/ab/made-then-gone.vcf", "/ab/c.vcf"])
        #expect(!listing.isComplete && listing.token == "t2")
        let plan = ListingPlan.make(listing, known: ["/ab/gone-then-made.vcf": "0", "/ab/made-then-gone.vcf": "0"], unconfirmed: [:])
        #expect(plan.removed == ["/ab/made-then-gone.vcf"] && plan.wanted == ["/ab/b.vcf", "/ab/gone-then-made.vcf"])
    }

    // MARK: - Which contact a card is

    @Test func aCardIsTheContactOfItsRecordOrOfItsUID() {
        #expect(CardIdentity.of(href: "/ab/a.vcf", id: "u1", recordedAt: nil, removed: []) == .same)
        #expect(CardIdentity.of(href: "/ab/a.vcf", id: "u1", recordedAt: "/ab/a.vcf", removed: []) == .same)
    }

    @Test func aCardWhoseUIDsHrefThisPullFoundRemovedWasMovedThere() {
        #expect(CardIdentity.of(href: "/ab/b.vcf", id: "u1", recordedAt: "/ab/a.vcf", removed: ["/ab/a.vcf"]) == .moved(from: "/ab/a.vcf"))
    }

    /// Issue 56, item 12: the contact a record here holds, moved to another
    /// book since, is the one its card's edit changes; a contact of another
    /// book with no record here is another card.
    @Test func aCardChangesItsContactMovedToAnotherBookButNoOtherBooksContact() {
        let (synced, other) = (BookID(rawValue: 1), BookID(rawValue: 2))
        #expect(CardIdentity.changes(contactIn: synced, syncedBook: synced, hasRecord: false))
        #expect(CardIdentity.changes(contactIn: other, syncedBook: synced, hasRecord: true), "moved since its last sync")
        #expect(!CardIdentity.changes(contactIn: other, syncedBook: synced, hasRecord: false), "the same UID in two accounts")
    }

    @Test func aSecondCardOfOneUIDIsAContactOfItsOwnKeepingTheUID() {
        #expect(CardIdentity.of(href: "/ab/b.vcf", id: "u1", recordedAt: "/ab/a.vcf", removed: ["/ab/c.vcf"])
                == .apart(id: "u1#b", uid: "u1"))
    }

    // MARK: - Pushing

    func record(base: ContactDraft?, etag: String? = "e1", pushes: [ContactDraft] = []) -> SyncedCard {
        var record = SyncedCard(contactId: "a", href: "/ab/a.vcf", etag: etag, revision: 5, base: base?.jsonText)
        record.pushes = pushes.enumerated().map { (6 + $0.offset, $0.element.jsonText) }
        return record
    }

    @Test func aContactTheServerNeverHeldIsSentOnlyWhereNoCardIs() throws {
        #expect(try PutDecision.decide(record: nil, contact: base, groups: nil) == .send(.ifNoneMatch))
        #expect(try PutDecision.decide(record: record(base: nil, pushes: [base]), contact: base, groups: nil) == .send(.ifNoneMatch),
                "pushed, and not yet listed")
    }

    @Test func aChangedCardIsSentOnlyOverTheCardLastSeen() throws {
        var changed = base
        changed.company = "Acme"
        #expect(try PutDecision.decide(record: record(base: base), contact: changed, groups: nil) == .send(.ifMatch("e1")))
        #expect(try PutDecision.decide(record: record(base: base, etag: nil), contact: changed, groups: nil) == .send(.ifMatch("*")),
                "a server that sends no ETags")
    }

    @Test(arguments: [GroupConvention.cards, .categories])
    func aChangeOfGroupsAloneIsSentOnlyWhereCardsCarryThem(_ groups: GroupConvention) throws {
        var member = base
        member.groups = ["Work"]
        let decision = try PutDecision.decide(record: record(base: base), contact: member, groups: groups)
        #expect(decision == (groups == .cards ? .recordOnly : .send(.ifMatch("e1"))))
    }

    @Test func aContactWithAPushUnderWayIsSentAgainEvenUnchanged() throws {
        #expect(try PutDecision.decide(record: record(base: base, pushes: [base]), contact: base, groups: .cards) == .send(.ifMatch("e1")))
        #expect(try PutDecision.decide(record: record(base: base), contact: base, groups: .cards) == .recordOnly)
    }

    @Test func aSyncedVersionThatCannotBeReadIsADamagedDatabase() {
        var damaged = record(base: base)
        damaged.base = "{not json"
        #expect(throws: ContactsDBError.self) { try PutDecision.decide(record: damaged, contact: base, groups: nil) }
    }

    @Test func aDeleteRemovesOnlyTheCardLastSeen() {
        #expect(Precondition.forDelete(etag: "e1").header == ("If-Match", "e1"))
        #expect(Precondition.forDelete(etag: nil).header == ("If-Match", "*"))
        #expect(Precondition.ifNoneMatch.header == ("If-None-Match", "*"))
    }

    @Test(arguments: [
        (200, PushKind.new, PushOutcome.stored), (201, .new, .stored), (204, .changed, .stored),
        (412, .changed, .changedThere), (412, .new, .changedThere), (404, .changed, .changedThere), (404, .new, .refused(404)),
        (410, .changed, .refused(410)), (403, .changed, .refused(403)), (409, .new, .refused(409)), (423, .changed, .refused(423)),
        (507, .changed, .refused(507)),
        (200, .deleted, .stored), (204, .deleted, .stored), (404, .deleted, .alreadyGone), (410, .deleted, .alreadyGone),
        (412, .deleted, .changedThere), (403, .deleted, .refused(403)), (423, .deleted, .refused(423)),
    ])
    func eachAnswerToAPutOrADelete(_ status: Int, _ kind: PushKind, _ outcome: PushOutcome) {
        #expect(PushOutcome.of(kind, status: status) == outcome)
    }

    /// Issue 56, items 12 and 20: a PUT refused for another card of its UID
    /// (Radicale's 409, Xandikos' 412, each naming `no-uid-conflict`) is
    /// no change there to pull.
    @Test func aPutRefusedForAnotherCardOfItsUIDIsNoChangeThere() {
        let radicale = Data(#"<D:error xmlns:D="DAV:" xmlns:CR="urn:ietf:params:xml:ns:carddav"><CR:no-uid-conflict /></D:error>"#.utf8)
        let xandikos = Data(#"<ns0:error xmlns:ns0="DAV:"><ns1:no-uid-conflict xmlns:ns1="urn:ietf:params:xml:ns:caldav"/></ns0:error>"#.utf8)
        #expect(PushOutcome.of(.new, status: 409, body: radicale) == .uidTaken(409))
        #expect(PushOutcome.of(.new, status: 412, body: xandikos) == .uidTaken(412))
        #expect(PushOutcome.of(.new, status: 412, body: Data()) == .changedThere, "a card at its href")
        #expect(PushOutcome.of(.deleted, status: 412, body: xandikos) == .changedThere)
    }
}
