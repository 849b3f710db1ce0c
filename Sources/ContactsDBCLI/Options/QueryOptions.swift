import ArgumentParser
import ContactsDB

/// The filters, sort and page of a query, shared by `query` and `watch`.
struct QueryOptions: ParsableArguments {
    @Option(help: "Only contacts that have this; repeat to require several.")
    var has: [ContactAttribute] = []
    @Option(help: "A prefix of any word of the first name, last name or company (case and accents ignored), of its Latin transliteration (ivan finds Иван, kim 김), or Hangul initial consonants (ㅎㄱㄷ finds 홍길동).")
    var name: String?
    @Option(help: "A phone number, or at least 3 of its digits, written any way.")
    var phone: String?
    @Option(help: ArgumentHelp(
        "Words that must each begin a word of anything the contact holds: names, nickname, company, title, emails, addresses, note, URLs, handles, relations (case and accents ignored; 3 or more digits also match phone numbers).",
        valueName: "words"))
    var text: String?
    @Option(help: "Text the email address contains.") var email: String?
    @Option(help: "Text the company contains.") var company: String?
    @Option(help: "Text the city of an address contains.") var city: String?
    @Option(help: "Text the country of an address contains.") var country: String?
    @Option(help: "Only this section of the index (A, Ж, ㄱ, #).") var section: String?
    @Flag(help: "Only favorites.") var favorite = false
    @Option(help: "Only members of a group of this name.") var group: String?
    @OptionGroup var books: BookOption<SeveralBooks>

    @Option(help: ArgumentHelp(
        "name (the sectioned default), first-name, last-name or company, with :asc (default) or :desc.",
        valueName: "key[:asc|desc]"))
    var sort: String?
    @Option(help: "At most this many contacts.") var limit: Int?
    @Option(help: "Skip this many contacts first.") var offset: Int = 0

    func validate() throws {
        if let phone, phone.filter(\.isNumber).count < 3 {
            throw ValidationError("Please give --phone at least 3 digits (got \"\(phone)\").")
        }
        if let text, !text.contains(where: { $0.isLetter || $0.isNumber }) {
            throw ValidationError("Please give --text at least one word of letters or digits (got \"\(text)\").")
        }
        if (limit ?? 0) < 0 || offset < 0 {
            throw ValidationError("Please give --limit and --offset as zero or more.")
        }
        _ = try parsedSort()
    }

    func makeQuery() throws -> ContactQuery {
        var query = ContactQuery()
        if !has.isEmpty {
            query = query.filter(.has(ContactAttributes(has.map(\.bit))))
        }
        let textFilters: [(String?, (String) -> ContactFilter)] = [
            (name, ContactFilter.namePrefix), (phone, ContactFilter.phone), (text, ContactFilter.text),
            (email, ContactFilter.emailContains), (company, ContactFilter.companyContains),
            (city, ContactFilter.cityContains), (country, ContactFilter.countryContains),
            (section, ContactFilter.section),
        ]
        for case let (value?, filter) in textFilters { query = query.filter(filter(value)) }
        if favorite { query = query.filter(.favorite) }
        if let group { query = query.filter(.group(group)) }
        if let books = books.names { query = query.filter(.books(books)) }
        let sort = try parsedSort()
        return query.sorted(by: sort.key, descending: sort.descending).page(limit: limit, offset: offset)
    }

    private func parsedSort() throws -> ContactSort {
        guard let sort else { return ContactSort() }
        let parts = sort.split(separator: ":", maxSplits: 1).map(String.init)
        let keys = ContactSort.Key.allCases.map(\.rawValue).joined(separator: ", ")
        guard let key = parts.first.flatMap(ContactSort.Key.init(rawValue:)) else {
            throw ValidationError("Please give --sort one of \(keys), optionally with :asc or :desc (got \"\(sort)\").")
        }
        switch parts.count > 1 ? parts[1] : "asc" {
        case "asc": return ContactSort(key: key, descending: false)
        case "desc": return ContactSort(key: key, descending: true)
        default: throw ValidationError("Please end --sort with :asc or :desc (got \"\(sort)\").")
        }
    }
}

/// `--has` takes the library's attributes, names and all.
extension ContactAttribute: ExpressibleByArgument {}
