/// Where the whole card's fields live in the schema (Schema/0006): its
/// optional texts as columns of `contact`, its lists as child tables.
enum ContactDetailColumns {
    /// The optional text columns of `contact` that store a detail as given
    /// (``DetailText`` with the `column` role).
    static let text = DetailText.with(.column)

    /// Hands `body` the field of `text[i]` with its `i`, for each `i` in
    /// order, to read or to write: what a loop of key-path accesses does,
    /// at a fraction of its cost (a fifth of a list query's, and a key-path
    /// read copies the whole details); a test holds the two to one order.
    static func forEachText(of details: inout ContactDetails, _ body: (Int, inout String?) -> Void) {
        body(0, &details.namePrefix)
        body(1, &details.middleName)
        body(2, &details.nameSuffix)
        body(3, &details.phoneticFirstName)
        body(4, &details.phoneticMiddleName)
        body(5, &details.phoneticLastName)
        body(6, &details.nickname)
        body(7, &details.department)
        body(8, &details.jobTitle)
        body(9, &details.role)
        body(10, &details.birthday)
        body(11, &details.note)
    }
}
