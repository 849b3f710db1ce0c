/// Where the whole card's fields live in the schema (Schema/0006): its
/// optional texts as columns of `contact`, its lists as child tables.
enum ContactDetailColumns {
    /// The optional text columns of `contact` that store a detail as given
    /// (`kind` and `formattedName` are written apart: the one is never
    /// null, the other is kept only where it differs from `displayName`).
    // Key paths are immutable values; only their type is not marked Sendable.
    nonisolated(unsafe) static let text: [(name: String, field: WritableKeyPath<ContactDetails, String?>)] = [
        ("namePrefix", \.namePrefix), ("middleName", \.middleName), ("nameSuffix", \.nameSuffix),
        ("phoneticFirstName", \.phoneticFirstName), ("phoneticMiddleName", \.phoneticMiddleName),
        ("phoneticLastName", \.phoneticLastName), ("nickname", \.nickname), ("department", \.department),
        ("jobTitle", \.jobTitle), ("role", \.role), ("birthday", \.birthday), ("note", \.note),
    ]

    /// Every table whose rows belong to one contact and are rewritten with it.
    static let childTables = [
        "phone", "email", "address", "messenger", "contactDate", "url", "relation", "socialProfile",
        "extraProperty", "nameWord", "groupMember",
    ]
}
