/// The whole card's optional texts, each declared once: its key (the JSON
/// key, the `contact` column, the CSV column and the sync merge's property
/// name) and what it takes part in. Storage, JSON, validation, CSV, the
/// options of `add` and `update` and the merge read this list; what is
/// truly one field's own (its vCard property, its option's declaration)
/// stays with that field, and the search words name their texts directly
/// (a key path read copies the whole details, too dear per contact).
package struct DetailText: Sendable {
    package struct Roles: OptionSet, Sendable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }

        /// Stored in a column of its name (`formattedName` is written
        /// apart: it is kept only where it differs from the display name).
        package static let column = Roles(rawValue: 1 << 0)
        /// Tidied like the three names on the way in (spaces, controls).
        package static let name = Roles(rawValue: 1 << 1)
        /// Typed with an option of `add` and `update` (`--job-title`).
        package static let option = Roles(rawValue: 1 << 2)
    }

    package let key: String
    // Key paths are immutable values; only their type is not marked Sendable.
    nonisolated(unsafe) package let field: WritableKeyPath<ContactDetails, String?>
    package let roles: Roles
    /// The vCard property that holds the text as it is, read from the
    /// card's first such line without parameters and written after ORG;
    /// nil where the text has a shape of its own in vCard (N's parts,
    /// NICKNAME's list, BDAY's date, ORG's units, FN).
    package let vCard: String?
    /// Its caption in a form and on a contact's page, what a form adds
    /// to the caption about its shape, and the part of the form it goes in
    /// (``CardForm``).
    package let label: String
    package let hint: String?
    package let group: CardForm.Group

    init(_ key: String, _ field: WritableKeyPath<ContactDetails, String?>, _ roles: Roles, vCard: String? = nil,
         label: String, hint: String? = nil, in group: CardForm.Group) {
        (self.key, self.field, self.roles, self.vCard) = (key, field, roles, vCard)
        (self.label, self.hint, self.group) = (label, hint, group)
    }

    /// In the order export writes them.
    package static let all: [DetailText] = [
        DetailText("namePrefix", \.namePrefix, [.column, .name], label: "Prefix", in: .name),
        DetailText("middleName", \.middleName, [.column, .name, .option], label: "Middle name", in: .name),
        DetailText("nameSuffix", \.nameSuffix, [.column, .name], label: "Suffix", in: .name),
        DetailText("phoneticFirstName", \.phoneticFirstName, [.column, .name], vCard: "X-PHONETIC-FIRST-NAME",
                   label: "Phonetic first name", in: .phonetic),
        DetailText("phoneticMiddleName", \.phoneticMiddleName, [.column, .name], vCard: "X-PHONETIC-MIDDLE-NAME",
                   label: "Phonetic middle name", in: .phonetic),
        DetailText("phoneticLastName", \.phoneticLastName, [.column, .name], vCard: "X-PHONETIC-LAST-NAME",
                   label: "Phonetic last name", in: .phonetic),
        DetailText("nickname", \.nickname, [.column, .name, .option], label: "Nickname", in: .name),
        DetailText("formattedName", \.formattedName, [.name], label: "Name as written on the card", in: .name),
        DetailText("department", \.department, [.column, .name], label: "Department", in: .work),
        DetailText("jobTitle", \.jobTitle, [.column, .name, .option], vCard: "TITLE", label: "Job title", in: .work),
        DetailText("role", \.role, [.column, .name], vCard: "ROLE", label: "Role", in: .work),
        DetailText("birthday", \.birthday, [.column, .option],
                   label: "Birthday", hint: "YYYY-MM-DD, or --MM-DD without the year", in: .dates),
        DetailText("note", \.note, [.column, .option], vCard: "NOTE", label: "Note", in: .note),
    ]

    package static func with(_ role: Roles) -> [DetailText] {
        all.filter { $0.roles.contains(role) }
    }

    /// The texts a vCard holds as plain properties, in the order written.
    package static let inVCard: [(property: String, text: DetailText)] = all.compactMap { text in
        text.vCard.map { ($0, text) }
    }
    package static let byVCardProperty = Dictionary(uniqueKeysWithValues: inVCard)
}
