/// Where the whole card's fields live in the schema (Schema/0006): its
/// optional texts as columns of `contact`, its lists as child tables.
enum ContactDetailColumns {
    /// The optional text columns of `contact` that store a detail as given
    /// (``DetailText`` with the `column` role).
    static let text = DetailText.with(.column)

    /// Stores `value(i)` in the field of `text[i]`, for each `i`: what a
    /// loop of key-path writes does, at a fraction of its cost, which was
    /// a fifth of a list query's (a test holds the two to one order).
    static func setTexts(of details: inout ContactDetails, _ value: (Int) -> String?) {
        details.namePrefix = value(0)
        details.middleName = value(1)
        details.nameSuffix = value(2)
        details.phoneticFirstName = value(3)
        details.phoneticMiddleName = value(4)
        details.phoneticLastName = value(5)
        details.nickname = value(6)
        details.department = value(7)
        details.jobTitle = value(8)
        details.role = value(9)
        details.birthday = value(10)
        details.note = value(11)
    }

    /// The fields of `text`, in its order: what a loop of key-path reads
    /// does, at a fraction of its cost, which was a fortieth of an import's
    /// writing (a test holds the two to one order).
    static func texts(of details: ContactDetails) -> [String?] {
        [
            details.namePrefix, details.middleName, details.nameSuffix, details.phoneticFirstName,
            details.phoneticMiddleName, details.phoneticLastName, details.nickname, details.department,
            details.jobTitle, details.role, details.birthday, details.note,
        ]
    }

    /// Every table whose rows belong to one contact and are rewritten with it.
    static let childTables = [
        "phone", "email", "address", "messenger", "contactDate", "url", "relation", "socialProfile",
        "extraProperty", "nameWord", "groupMember",
    ]
}
