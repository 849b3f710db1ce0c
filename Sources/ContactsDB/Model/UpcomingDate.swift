/// A birthday or anniversary on the day it next falls (docs/cli.md,
/// "Birthdays and anniversaries"): `contactsdb birthdays`,
/// ``ContactStore/upcomingDates(from:within:inBooks:)``.
public struct UpcomingDate: Hashable, Sendable, Encodable {
    /// Which of the contact's dates it is.
    public enum Kind: String, Hashable, Sendable, Encodable {
        /// The contact's `birthday`.
        case birthday
        /// An entry of the contact's `dates`: an anniversary, or a date of
        /// a custom label, which recurs yearly all the same.
        case anniversary
    }

    /// The contact's id.
    public var id: String
    /// The contact's display name.
    public var displayName: String
    /// A birthday or an anniversary.
    public var kind: Kind
    /// `birthday`, or the date's label (`anniversary`, `name day`, …).
    public var label: String
    /// The day it falls on, with its year.
    public var date: PartialDate
    /// The years reached that day, when the date's year is known.
    public var age: Int?

    /// An upcoming date as
    /// ``ContactStore/upcomingDates(from:within:inBooks:)`` finds it.
    public init(id: String, displayName: String, kind: Kind, label: String, date: PartialDate, age: Int?) {
        self.id = id
        self.displayName = displayName
        self.kind = kind
        self.label = label
        self.date = date
        self.age = age
    }

    private enum CodingKeys: String, CodingKey { case id, displayName, kind, label, date, age }

    /// The JSON shape (docs/cli.md, "Birthdays and anniversaries"): `date` as
    /// `YYYY-MM-DD`, `age` null (not left out) when the year is unknown.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(kind, forKey: .kind)
        try container.encode(label, forKey: .label)
        try container.encode(date.text, forKey: .date)
        try container.encode(age, forKey: .age)
    }
}
