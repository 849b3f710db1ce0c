/// One condition on a contact (docs/cli.md, "Querying").
public enum ContactFilter: Hashable, Sendable {
    /// The contact has every one of these attributes.
    case has(ContactAttributes)
    /// Every word of the text is a prefix of a word of the first name, last
    /// name or company, ignoring case and accents (Ё = Е, É = E, Й ≠ И), or of
    /// a search key of the names: their Latin transliteration (`ivan` finds
    /// Иван, `kim` 김) or Hangul initial consonants (`ㅎㄱㄷ` finds 홍길동). A
    /// Cyrillic word also looks for its transliteration (docs/cli.md,
    /// "Querying").
    case namePrefix(String)
    /// The number's digits occur in one of the contact's normalized phone
    /// numbers; the text is normalized like a stored number first.
    case phone(String)
    /// Every word of the text is a prefix of a word of any text the contact
    /// holds (names, nickname, company, department, title, emails,
    /// addresses, note, URLs, messenger handles, social profiles,
    /// relations) or of the names' search keys, compared as `namePrefix`
    /// compares; a word of three or more digits also matches phone digits
    /// as `phone` does.
    case text(String)
    /// One of the emails contains the text, ignoring case and accents (as
    /// the three below compare too).
    case emailContains(String)
    /// The company contains the text.
    case companyContains(String)
    /// One of the addresses' cities contains the text.
    case cityContains(String)
    /// One of the addresses' countries contains the text.
    case countryContains(String)
    /// The contact files under this section label ("A", "Ж", "ㄱ", "#").
    case section(String)
    /// The contact is a favorite.
    case favorite
    /// The contact belongs to a group with this name (in any case), in
    /// whichever book; an unknown group is an error, not an empty result.
    case group(String)
    /// The contact is in one of these address books (by name, in any
    /// case); an unknown book is an error, not an empty result.
    case books([String])
}
