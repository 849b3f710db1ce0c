import Foundation

/// Everything the engine computes from a validated draft before writing it.
package struct DerivedFields: Sendable {
    package var displayName: String
    package var sortName: String
    package var sectionKey: String
    package var sortIndex: Int
    package var sortKey: Data
    package var firstNameKey: Data?
    package var lastNameKey: Data?
    package var companyKey: Data?
    package var companyFolded: String?
    package var attributes: ContactAttributes
    /// The distinct folded words of the names, then their search keys
    /// (``SearchKeys``), for the name-prefix filter.
    package var nameWords: [Data]
    /// The same words, each after one space (`contact.nameWords`).
    package var nameWordsText: String
    /// The distinct folded words of every text the contact holds, then the
    /// names' search keys, each after one space (`contact.searchWords`,
    /// indexed for `--text`).
    package var searchWords: String
    /// Per phone, its lookup form (E.164, or the digits), and the form an
    /// address book shows where it has an E.164 form.
    package var phonesNormalized: [String]
    package var phonesDisplayed: [String?]
    /// Per email, its folded value; per address, its folded city and country.
    package var emailsFolded: [String]
    package var addressesFolded: [(city: String, country: String)]
    /// The card's formatted name where it differs from `displayName`.
    package var formattedName: String?
    /// The photo's size and thumbnail; nil without a photo, or for one
    /// that cannot be decoded (an import keeps it as given all the same).
    package var photo: PhotoImage?

    /// The version of the rules below: stored with the keys, which are
    /// recomputed on open when it differs.
    package static let version = Collation.version + "; phones by libphonenumber; search words; birthday attribute; phone display; search keys; Cyrillic keys marked"

    /// The card's formatted name as stored: nil where it says what the
    /// display name derived from the other fields says (the company of an
    /// organization, else the personal name, else the first of AOSP's
    /// other sources).
    package static func keptFormattedName(_ draft: ContactDraft) -> String? {
        keptFormattedName(draft, personalName: personalName(draft))
    }

    private static func keptFormattedName(_ draft: ContactDraft, personalName: @autoclosure () -> String?) -> String? {
        guard let formattedName = draft.formattedName else { return nil }
        let derived = draft.kind == .organization ? draft.company : nil
        let source = derived ?? personalName() ?? otherName(draft)
        return formattedName == source ? nil : formattedName
    }

    /// - parameter thumbnailing: false leaves `photo` nil, for rewrites
    ///   that keep the stored photo and thumbnail as they are.
    package init(_ draft: ContactDraft, regions: PhoneRegions, thumbnailing: Bool = true) {
        // Phonetic names stand in for the names they read, for sorting and
        // filing (Japanese and Korean address books rely on it).
        let hasPhonetic = draft.phoneticFirstName != nil || draft.phoneticLastName != nil
        let sortFirst = hasPhonetic ? draft.phoneticFirstName ?? draft.firstName : draft.firstName
        let sortLast = hasPhonetic ? draft.phoneticLastName ?? draft.lastName : draft.lastName
        let personalName = Self.personalName(draft)
        if draft.kind == .organization, let company = draft.company {
            displayName = company
            sortName = company
        } else if let personalName {
            displayName = personalName
            let parts = [sortLast, sortFirst].compactMap { $0 }
            sortName = parts.joined(separator: Self.isWrittenFamilyFirst(parts.joined()) ? "" : " ")
        } else {
            // Without a name, the card's own formatted name is the display
            // name (and stays stored as its source); then AOSP's order.
            displayName = draft.formattedName ?? Self.otherName(draft)
            sortName = displayName
        }
        formattedName = Self.keptFormattedName(draft, personalName: personalName)
        (sectionKey, sortIndex) = Collation.section(of: sortName)
        sortKey = Collation.key(sortName)
        firstNameKey = sortFirst.map(Collation.key)
        lastNameKey = sortLast.map(Collation.key)
        companyKey = draft.company.map(Collation.key)
        companyFolded = draft.company.map(Collation.fold)
        attributes = ContactAttributes(draft)
        var words: [String] = []
        let names = [draft.firstName, draft.middleName, draft.lastName, draft.company, draft.nickname,
                     draft.phoneticFirstName, draft.phoneticMiddleName, draft.phoneticLastName].compactMap { $0 }
        for word in names.map(Collation.fold).flatMap(Text.words).map(String.init) where !words.contains(word) {
            words.append(word)
        }
        let keys = SearchKeys.keys(draft)
        for key in keys where !words.contains(key) { words.append(key) }
        nameWords = words.map { Data($0.utf8) }
        nameWordsText = words.map { " " + $0 }.joined()
        searchWords = Self.searchWords(draft, keys: keys)
        let phones = draft.phones.map { PhoneNumber($0.value, regions: regions, displaying: true) }
        phonesNormalized = phones.map(\.normalized)
        phonesDisplayed = phones.map(\.display)
        emailsFolded = draft.emails.map { Collation.fold($0.value) }
        addressesFolded = draft.addresses.map { (Collation.fold($0.city), Collation.fold($0.country)) }
        // Decoding here rather than on the writer's thread lets an import
        // make its thumbnails on the threads that derive its contacts.
        photo = thumbnailing ? draft.photo.flatMap { try? PhotoImage($0.data) } : nil
    }

    /// What names a contact without a personal name (docs/vcard.md, "vCard and
    /// CSV"): AOSP's display-name sources in their rank — nickname, company,
    /// phone, email — then a messenger handle, a URL and the note's first line;
    /// "" when it holds none of them.
    private static func otherName(_ draft: ContactDraft) -> String {
        let sources = [draft.nickname, draft.company, draft.phones.first?.value, draft.emails.first?.value,
                       draft.messengers.first?.handle, draft.details.urls.first?.value]
        if let source = sources.lazy.compactMap({ $0 }).first { return source }
        return draft.details.note.flatMap { note in
            note.split(whereSeparator: \.isNewline).lazy.map { Text.tidy(String($0)) }.first { !$0.isEmpty }
        } ?? ""
    }

    /// The texts `--text` searches (docs/cli.md, "Querying"), folded and cut
    /// into words once each, then the search keys. Read directly rather than
    /// through the registry's key paths: each key path read copies the whole
    /// details, which made this a fifth dearer in every import.
    private static func searchWords(_ draft: ContactDraft, keys: [String]) -> String {
        // A contact holds a few dozen words: a look along them costs less
        // than hashing each into a set, which takes over past that (a note
        // may hold thousands).
        var words: [String] = [], seen: Set<String> = []
        func add(_ text: String?) {
            guard let text else { return }
            for word in Text.searchWords(text) {
                if words.count < 64 {
                    if words.contains(word) { continue }
                } else {
                    if seen.isEmpty { seen = Set(words) }
                    if !seen.insert(word).inserted { continue }
                }
                words.append(word)
            }
        }
        let details = draft.details
        for text in [
            draft.firstName, draft.middleName, draft.lastName, details.namePrefix, details.nameSuffix,
            details.phoneticFirstName, details.phoneticMiddleName, details.phoneticLastName, details.formattedName,
            details.nickname, draft.company, details.department, details.jobTitle, details.role, details.note,
        ] { add(text) }
        for email in draft.emails { add(email.value) }
        for address in draft.addresses {
            for text in [address.poBox, address.street1, address.street2, address.city, address.state, address.zipcode,
                         address.country] { add(text) }
        }
        for url in details.urls { add(url.value) }
        for messenger in draft.messengers { add(messenger.handle) }
        for profile in details.socialProfiles {
            add(profile.handle)
            add(profile.url)
        }
        for relation in details.relations { add(relation.name) }
        for key in keys { add(key) }
        return words.isEmpty ? "" : " " + words.joined(separator: " ")
    }

    /// Prefix, first, middle and last name, and suffix, in the order the
    /// name's script writes them; nil when the contact has no first,
    /// middle or last name.
    private static func personalName(_ draft: ContactDraft) -> String? {
        let given = [draft.firstName, draft.middleName].compactMap { $0 }
        guard !given.isEmpty || draft.lastName != nil else { return nil }
        if isWrittenFamilyFirst((draft.lastName ?? "") + given.joined()) {
            return ([draft.lastName].compactMap { $0 } + given).joined()
        }
        return ([draft.namePrefix] + given.map(Optional.some) + [draft.lastName, draft.nameSuffix])
            .compactMap { $0 }.joined(separator: " ")
    }

    /// Names written in Hangul, Han or kana put the family name first with
    /// no space, as address books there show them.
    private static func isWrittenFamilyFirst(_ name: String) -> Bool {
        name.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF,  // Hangul
                 0x3040...0x30FF,  // kana
                 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF:  // Han
                return true
            default:
                return false
            }
        }
    }
}
