import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct Query: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "query",
            abstract: "List the contacts that match every filter given, in one sort order.",
            discussion: """
                Filters are ANDed. Examples:
                  contactsdb query --has telegram --has phone --has email
                  contactsdb query --sort last-name:desc --limit 20
                  contactsdb query --name ива --phone 345-67-89
                """)

        enum Attribute: String, ExpressibleByArgument, CaseIterable {
            case phone, email, address, telegram, whatsapp, viber, signal, threema, photo
        }

        @OptionGroup var database: DatabaseOptions

        @Option(help: "Only contacts that have this; repeat to require several.")
        var has: [Attribute] = []
        @Option(help: "A prefix of any word of the first name, last name or company (case and accents ignored).")
        var name: String?
        @Option(help: "A phone number, or at least 3 of its digits, written any way.")
        var phone: String?
        @Option(help: "Text the email address contains.") var email: String?
        @Option(help: "Text the company contains.") var company: String?
        @Option(help: "Text the city of an address contains.") var city: String?
        @Option(help: "Text the country of an address contains.") var country: String?
        @Option(help: "Only this section of the index (A, Ж, ㄱ, #).") var section: String?
        @Flag(help: "Only favorites.") var favorite = false
        @Option(help: "Only members of this group.") var group: String?

        @Option(help: ArgumentHelp(
            "name (the sectioned default), first-name, last-name or company, with :asc (default) or :desc.",
            valueName: "key[:asc|desc]"))
        var sort: String?
        @Option(help: "At most this many contacts.") var limit: Int?
        @Option(help: "Skip this many contacts first.") var offset: Int = 0

        @Flag(help: "Print only the number of matching contacts.") var count = false
        @Flag(help: "Print each non-empty section with its count, in index order.") var sections = false
        @Flag(help: "Print the SQL and SQLite's query plan instead of the contacts.") var explain = false
        @OptionGroup var output: OutputOptions

        func validate() throws {
            if let phone, phone.filter(\.isNumber).count < 3 {
                throw ValidationError("Please give --phone at least 3 digits (got \"\(phone)\").")
            }
            if (limit ?? 0) < 0 || offset < 0 {
                throw ValidationError("Please give --limit and --offset as zero or more.")
            }
            if [count, sections, explain].filter({ $0 }).count > 1 {
                throw ValidationError("Please choose one of --count, --sections and --explain.")
            }
            _ = try parsedSort()
        }

        func run() throws {
            let query = try makeQuery()
            let store = try database.openStore()
            if count {
                print(try store.count(matching: query))
            } else if sections {
                try printSections(try store.sections(matching: query))
            } else if explain {
                let (sql, plan) = try store.explain(query)
                print(sql)
                print("QUERY PLAN")
                plan.forEach { print($0) }
            } else {
                ContactPrinter.print(try store.contacts(matching: query), as: output.format, regions: try store.phoneRegions())
            }
        }

        func makeQuery() throws -> ContactQuery {
            var query = ContactQuery()
            if !has.isEmpty {
                let attributes = has.reduce(into: ContactAttributes()) { result, attribute in
                    result.formUnion(ContactAttributes.named.first { $0.name == attribute.rawValue }!.attribute)
                }
                query = query.filter(.has(attributes))
            }
            let textFilters: [(String?, (String) -> ContactFilter)] = [
                (name, ContactFilter.namePrefix), (phone, ContactFilter.phone),
                (email, ContactFilter.emailContains), (company, ContactFilter.companyContains),
                (city, ContactFilter.cityContains), (country, ContactFilter.countryContains),
                (section, ContactFilter.section),
            ]
            for case let (value?, filter) in textFilters { query = query.filter(filter(value)) }
            if favorite { query = query.filter(.favorite) }
            if let group { query = query.filter(.group(group)) }
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

        private func printSections(_ sections: [SectionCount]) throws {
            switch output.format {
            case .table:
                if sections.isEmpty { print(ContactPrinter.noMatch); return }
                print(ContactPrinter.alignedColumns([["SECTION", "COUNT"]] + sections.map { [$0.sectionKey, String($0.count)] }),
                      terminator: "")
            case .json:
                try JSONOutput.printArray(sections)
            case .ndjson:
                try JSONOutput.printLines(sections)
            case .csv:
                print("sectionKey,count\r")
                sections.forEach { print("\($0.sectionKey),\($0.count)\r") }
            }
        }
    }
}
