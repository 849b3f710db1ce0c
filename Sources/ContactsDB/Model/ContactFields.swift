/// The whole card's optional texts, each declared once: its key (the JSON
/// key, the `contact` column, the CSV column and the sync merge's property
/// name) and what it takes part in. Storage, JSON, validation, CSV and the
/// merge read this list; what is truly one field's own (its vCard property,
/// a typed-input option) stays with that field.
package struct DetailText: Sendable {
    package struct Roles: OptionSet, Sendable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }

        /// Stored in a column of its name (`formattedName` is written
        /// apart: it is kept only where it differs from the display name).
        package static let column = Roles(rawValue: 1 << 0)
        /// Tidied like the three names on the way in (spaces, controls).
        package static let name = Roles(rawValue: 1 << 1)
        /// Among the texts `--text` searches (its words in `searchWords`).
        package static let searched = Roles(rawValue: 1 << 2)
        /// Typed with an option of `add` and `update` (`--job-title`).
        package static let option = Roles(rawValue: 1 << 3)
    }

    package let key: String
    // Key paths are immutable values; only their type is not marked Sendable.
    nonisolated(unsafe) package let field: WritableKeyPath<ContactDetails, String?>
    package let roles: Roles

    init(_ key: String, _ field: WritableKeyPath<ContactDetails, String?>, _ roles: Roles) {
        (self.key, self.field, self.roles) = (key, field, roles)
    }

    /// In the order export writes them.
    package static let all: [DetailText] = [
        DetailText("namePrefix", \.namePrefix, [.column, .name, .searched]),
        DetailText("middleName", \.middleName, [.column, .name, .searched, .option]),
        DetailText("nameSuffix", \.nameSuffix, [.column, .name, .searched]),
        DetailText("phoneticFirstName", \.phoneticFirstName, [.column, .name, .searched]),
        DetailText("phoneticMiddleName", \.phoneticMiddleName, [.column, .name, .searched]),
        DetailText("phoneticLastName", \.phoneticLastName, [.column, .name, .searched]),
        DetailText("nickname", \.nickname, [.column, .name, .searched, .option]),
        DetailText("formattedName", \.formattedName, [.name, .searched]),
        DetailText("department", \.department, [.column, .name, .searched]),
        DetailText("jobTitle", \.jobTitle, [.column, .name, .searched, .option]),
        DetailText("role", \.role, [.column, .name, .searched]),
        DetailText("birthday", \.birthday, [.column, .option]),
        DetailText("note", \.note, [.column, .searched, .option]),
    ]

    package static func with(_ role: Roles) -> [DetailText] {
        all.filter { $0.roles.contains(role) }
    }
}
