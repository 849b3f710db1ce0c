import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct Conflicts: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "conflicts",
            abstract: "List the versions that lost a sync conflict; show, restore or dismiss one.",
            subcommands: [List.self, Show.self, Restore.self, Dismiss.self],
            defaultSubcommand: List.self)

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "List the conflicts kept.")
            @OptionGroup var database: DatabaseOptions
            @Option(help: "Output format.") var format: ListFormat = .table

            func run() throws {
                RecordList.print(try database.openStore().conflicts(), as: format, empty: "No conflicts.",
                                 header: ["ID", "CONTACT", "KEPT", "PROPERTIES", "DETECTED"], row: { conflicts in
                    conflicts.map {
                        [String($0.id), $0.contactId, $0.kept.rawValue, Conflicts.properties($0),
                         Timestamp.string(from: $0.detectedAt)]
                    }
                }, json: Conflicts.json)
            }
        }

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "show", abstract: "Show one conflict with its losing version, as JSON.")
            @OptionGroup var database: DatabaseOptions
            @Argument(help: "The conflict's id.") var id: Int

            func run() throws {
                print(Conflicts.json(try database.openStore().conflict(id: id)))
            }
        }

        struct Restore: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "restore",
                abstract: "Apply one conflict's losing version as an update, and forget the conflict.",
                discussion: """
                    The version it replaces stays in the contact's history (`contactsdb history ID`); the next \
                    sync pushes the contact. A losing deletion deletes the contact into the trash.
                    """)
            @OptionGroup var database: DatabaseOptions
            @Argument(help: "The conflict's id.") var id: Int

            func run() throws {
                guard let contact = try database.openStore().restoreConflict(id: id) else {
                    return print("Restored the conflict \(id): the contact is deleted, and in the trash.")
                }
                print("Restored the conflict \(id): \(contact.id) is at revision \(contact.revision).")
            }
        }

        struct Dismiss: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "dismiss", abstract: "Forget a conflict's losing version.")
            @OptionGroup var database: DatabaseOptions
            @Argument(help: "The conflict's id.") var id: Int

            func run() throws {
                try database.openStore().dismissConflict(id: id)
                print("Dismissed the conflict \(id).")
            }
        }

        static func properties(_ conflict: SyncConflict) -> String {
            conflict.properties.isEmpty ? (conflict.kept == .server ? "(deleted here)" : "(deleted on the server)")
                : conflict.properties.joined(separator: ", ")
        }

        /// `{"id", "contactId", "detectedAt", "kept", "properties", "losing"}`:
        /// `losing` is the losing side's whole contact, or null when it was
        /// a deletion.
        static func json(_ conflict: SyncConflict) -> String {
            "{\"id\": \(conflict.id), \"contactId\": \(JSONText.quote(conflict.contactId)), "
                + "\"detectedAt\": \(JSONText.quote(Timestamp.string(from: conflict.detectedAt))), "
                + "\"kept\": \(JSONText.quote(conflict.kept.rawValue)), "
                + "\"properties\": [\(conflict.properties.map(JSONText.quote).joined(separator: ", "))], "
                + "\"losing\": \(conflict.losing?.jsonText ?? "null")}"
        }
    }
}
