import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge",
            abstract: "Merge contacts into one, keeping a record that `unmerge` takes back.",
            discussion: """
                The survivor (--into, else the first id) takes each value it lacks from the others in the \
                order given, unions their lists and groups, is a favorite if any was, and keeps its photo \
                (else takes the first other's); a value it already has a different one of is not taken, \
                and is named on stderr. The others are deleted. Prints the merge's id. Contacts of \
                different books are not merged (exit 64): `contactsdb link` shows them as one person.
                """)

        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The contacts' ids.") var ids: [String] = []
        @Option(help: "The contact that holds everything after the merge (default: the first id).") var into: String?
        @Flag(help: "Merge every certain set of `contactsdb duplicates`, each book's contacts of it into their first.")
        var allCertain = false
        @Flag(help: "Print the contact the merge would make (JSON as `show`) and change nothing.") var dryRun = false
        @Option(help: "Output format.") var format: ListFormat = .table

        func validate() throws {
            if allCertain {
                guard ids.isEmpty, into == nil else {
                    throw ValidationError("--all-certain takes no ids and no --into.")
                }
            } else {
                guard Set(ids + [into].compactMap { $0 }).count >= 2 else {
                    throw ValidationError("Give two or more distinct contact ids to merge.")
                }
            }
        }

        func run() throws {
            let store = try database.openStore()
            if allCertain {
                for result in try store.mergeAllCertain(dryRun: dryRun) { report(result, line: true) }
                return
            }
            let result = try store.merge(ids, into: into, dryRun: dryRun)
            report(result, line: false)
        }

        /// The merge's id (or a dry run's contact), and on stderr each
        /// value the survivor did not take.
        private func report(_ result: MergeResult, line: Bool) {
            for kept in result.keptApart {
                Terminal.printNotice("Not taken from \(kept.id): \(kept.field) \(JSONText.quote(kept.value)); "
                    + "\(result.contact.id) keeps its own" + (result.mergeID.map { " (kept in merge \($0))" } ?? "") + ".")
            }
            if dryRun, !line {
                print("[\n" + result.contact.jsonText + "\n]")
            } else if line {
                print(([result.mergeID.map(String.init) ?? "-", result.contact.id] + result.merged).joined(separator: "\t"))
            } else if format == .json, let id = result.mergeID {
                print("{\"id\": \(id), \"into\": \(JSONText.quote(result.contact.id)), \"merged\": \(JSONText.array(result.merged, separator: ", "))}")
            } else if let id = result.mergeID {
                print(id)
            }
        }
    }

    struct Merges: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merges", abstract: "List the merges that `unmerge` can take back.")

        @OptionGroup var database: DatabaseOptions
        @Option(help: "Output format.") var format: ListFormat = .table

        func run() throws {
            RecordList.print(try database.openStore().merges(), as: format, empty: "No merges.",
                             header: ["ID", "INTO", "MERGED", "AT"], row: { merges in
                merges.map { [String($0.id), $0.into, $0.merged.joined(separator: " "), Timestamp.string(from: $0.at)] }
            }, json: {
                "{\"id\": \($0.id), \"into\": \(JSONText.quote($0.into)), \"merged\": \(JSONText.array($0.merged, separator: ", ")), "
                    + "\"at\": \(JSONText.quote(Timestamp.string(from: $0.at)))}"
            })
        }
    }

    struct Unmerge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unmerge",
            abstract: "Take a merge back: restore the merged contacts, and the survivor unless it was edited since.")

        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The merge's id (`contactsdb merges`).") var mergeID: Int

        func run() throws {
            let result = try database.openStore().unmerge(mergeID)
            if !result.survivorRestored {
                Terminal.printNotice("\(result.survivor) was edited or deleted after the merge, so it was left as it is.")
            }
            print("Unmerged \(mergeID): restored \(result.restored.joined(separator: ", "))"
                + (result.survivorRestored ? " and \(result.survivor) as it was." : "."))
        }
    }
}
