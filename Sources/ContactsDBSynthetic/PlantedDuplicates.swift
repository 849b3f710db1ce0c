import ContactsDB

/// Distinct people with duplicate sets planted among them (docs/cli.md,
/// "Duplicates and merging"), to check `duplicates` against what was
/// planted: every other contact's name, phone, email and handle are its
/// own, and pairs of different people who share only a name are planted as
/// decoys.
///
/// The planted sets, in turn: one person three times with one number
/// written three ways (certain); twice with one email in two cases
/// (certain); as a Cyrillic name and its Latin spelling with one shared
/// phone (likely); twice by name and birthday alone (likely); and a company
/// card without a name sharing a Telegram handle with a person (certain).
public struct PlantedDuplicates: Sequence, Sendable {
    public let count: Int
    public let sets: Int

    /// `count` contacts in all, `sets` planted sets and `sets / 2` decoy
    /// pairs among them; `count` must hold them (3 contacts a set).
    public init(count: Int, sets: Int) {
        self.count = Swift.max(count, sets * 3 + (sets / 2) * 2)
        self.sets = sets
    }

    /// The planted sets with the confidence the rules give them (docs/cli.md,
    /// "Duplicates and merging"); their ids in the order generated.
    public var planted: [DuplicateSet] {
        (0..<sets).map { set in
            let kind = Self.kinds[set % Self.kinds.count]
            return DuplicateSet(ids: (0..<kind.size).map { "p\(set)-\($0)" }, confidence: kind.confidence, reasons: [])
        }
    }

    public func makeIterator() -> AnyIterator<ContactDraft> {
        var set = 0, member = 0, decoy = 0, plain = 0
        let decoys = sets / 2
        var produced = 0
        return AnyIterator {
            guard produced < count else { return nil }
            produced += 1
            if set < sets {
                let draft = Self.planted(set: set, member: member)
                member += 1
                if member == Self.kinds[set % Self.kinds.count].size { (set, member) = (set + 1, 0) }
                return draft
            }
            if decoy < decoys * 2 {
                defer { decoy += 1 }
                return Self.decoy(decoy / 2, member: decoy % 2)
            }
            defer { plain += 1 }
            return Self.plain(plain)
        }
    }

    // MARK: - Non public

    private static let kinds: [(size: Int, confidence: DuplicateSet.Confidence)] = [
        (3, .certain), (2, .certain), (2, .likely), (2, .likely), (2, .certain),
    ]
    private static let firstNames = ["Anna", "Boris", "Clara", "Dmitri", "Elena", "Farid", "Greta", "Hana"]
    private static let syllables = ["ba", "ko", "ri", "mu", "se", "ta", "ne", "lo", "vi", "du"]
    private static let cyrillicSyllables = ["ба", "ко", "ри", "му", "се", "та", "не", "ло", "ви", "ду"]
    private static let cyrillicFirstNames = ["Анна", "Борис", "Клара", "Дмитрий", "Елена", "Фарид", "Грета", "Хана"]

    /// A name no other number gives: one syllable per decimal digit.
    private static func surname(_ number: Int, prefix: String, cyrillic: Bool = false) -> String {
        let table = cyrillic ? cyrillicSyllables : syllables
        let word = String(number).compactMap { $0.wholeNumberValue }.map { table[$0] }.joined()
        return (cyrillic ? "Ро" : prefix) + word
    }

    /// A number of the US plan (exchange `block`NN) no other `number`
    /// below a million gives.
    private static func usPhone(_ number: Int, block: Int) -> String {
        let digits = String(String(1_000_000 + number % 1_000_000).dropFirst())
        return "+1 415 \(block)\(digits.prefix(2)) \(digits.suffix(4))"
    }

    private static func plain(_ number: Int) -> ContactDraft {
        var draft = ContactDraft(id: "c\(number)", firstName: firstNames[number % firstNames.count],
                                 lastName: surname(number, prefix: "Na"))
        draft.phones = [Phone(value: usPhone(number, block: 2))]
        draft.emails = [Email(value: "c\(number)@example.com")]
        if number % 3 == 0 { draft.messengers = [Messenger(service: "telegram", handle: "@c\(number)")] }
        if number % 4 == 0 { draft.birthday = "1980-0\(1 + number % 9)-1\(number % 10)" }
        if number % 5 == 0 { draft.company = "Acme" }
        if number % 2 == 0 { draft.addresses = [Address(city: number % 4 == 0 ? "Berlin" : "Kazan")] }
        return draft
    }

    private static func decoy(_ pair: Int, member: Int) -> ContactDraft {
        var draft = ContactDraft(id: "d\(pair)-\(member)", firstName: "Olga", lastName: surname(pair, prefix: "Di"))
        draft.phones = [Phone(value: usPhone(pair * 2 + member, block: 3))]
        draft.emails = [Email(value: "d\(pair)-\(member)@example.org")]
        if member == 0 {
            draft.birthday = "1975-05-05"
            draft.company = "Globex"
        } else {
            draft.addresses = [Address(city: "Paris")]
        }
        return draft
    }

    private static func planted(set: Int, member: Int) -> ContactDraft {
        let id = "p\(set)-\(member)"
        let first = firstNames[set % firstNames.count], last = surname(set, prefix: "Pe")
        var draft = ContactDraft(id: id, firstName: first, lastName: last)
        let digits = String(1_000_000 + set).suffix(7)
        switch set % kinds.count {
        case 0:
            if member == 1 { (draft.firstName, draft.lastName) = (first.uppercased(), last.lowercased()) }
            let (a, b, c) = (digits.prefix(3), digits.dropFirst(3).prefix(2), digits.suffix(2))
            draft.phones = [Phone(value: ["+7 912 \(a)-\(b)-\(c)", "8 (912) \(a)-\(b)\(c)", "+7912\(digits)"][member])]
        case 1:
            let email = "\(first).\(last)@Example.com"
            draft.emails = [Email(value: member == 0 ? email : email.lowercased())]
            draft.phones = [Phone(value: usPhone(set * 2 + member, block: 4))]
        case 2:
            if member == 1 {
                (draft.firstName, draft.lastName) = (cyrillicFirstNames[set % firstNames.count],
                                                     surname(set, prefix: "", cyrillic: true))
            }
            draft.phones = [Phone(value: "+7 913 \(digits)")]
        case 3:
            draft.birthday = "1990-02-1\(set % 10)"
            draft.emails = [Email(value: "\(id)@example.net")]
        default:
            if member == 0 {
                draft = ContactDraft(id: id, company: "Firm " + last)
            }
            draft.messengers = [Messenger(service: "telegram", handle: "@firm\(set)")]
        }
        return draft
    }
}
