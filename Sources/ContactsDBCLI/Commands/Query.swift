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
                  contactsdb query --unified --has telegram
                --unified gives one row per person: contacts linked across books (`contactsdb link`) are one \
                row, named, sorted and sectioned as the first of them in the default order, with the phones, \
                emails and messengers of all of them, matching a filter when any of them does (--section: the \
                first); JSON rows carry "ids". --count and --sections then count persons.
                """)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var filters: QueryOptions

        @Flag(help: "Print only the number of matching contacts.") var count = false
        @Flag(help: "Print each non-empty section with its count, in index order.") var sections = false
        @Flag(help: "Print the SQL and SQLite's query plan instead of the contacts.") var explain = false
        @Flag(help: "One row per person: contacts linked across books are one row.") var unified = false
        @OptionGroup var output: OutputOptions

        func validate() throws {
            if [count, sections, explain].filter({ $0 }).count > 1 {
                throw ValidationError("Please choose one of --count, --sections and --explain.")
            }
        }

        func run() throws {
            let query = try filters.makeQuery().unified(unified)
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
            } else if unified {
                let people = try store.people(matching: query)
                switch output.format {
                case .json, .ndjson: ContactPrinter.printJSON(people.map(\.jsonText), lines: output.format == .ndjson)
                case .table, .csv:
                    let showingBooks = try output.format == .table && store.hasSeveralBooks()
                    ContactPrinter.print(people.map(\.contact), as: output.format, regions: try store.phoneRegions(),
                                         showingBooks: showingBooks)
                }
            } else {
                let showingBooks = try output.format == .table && store.hasSeveralBooks()
                ContactPrinter.print(try store.contacts(matching: query), as: output.format, regions: try store.phoneRegions(),
                                     showingBooks: showingBooks)
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
