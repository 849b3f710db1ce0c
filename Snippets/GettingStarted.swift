// Open a store, see the seeded contacts, query, list them by section,
// observe the list, import and sync.
import ContactsDB
import ContactsDBSync
import Foundation

// snippet.open
// A file of its own; the first open creates it, migrates it and imports
// the bundled seed (10 contacts).
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("contactsdb-getting-started-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let store = try ContactStore.open(at: directory.appendingPathComponent("contacts.sqlite").path)
print("seeded:", try store.count(matching: ContactQuery()))

// snippet.add
// Typed input is validated: a bad phone or email throws
// `ContactsDBError.invalidContact` and nothing is written.
let ada = try store.add(ContactDraft(
    firstName: "Ada", lastName: "Lovelace",
    phones: [Phone(value: "+44 20 7946 0958")],
    messengers: [Messenger(service: "telegram", handle: "@ada")]))

// snippet.query
// Filters all hold at once; the page comes in the sectioned order unless
// sorted otherwise.
let reachable = ContactQuery()
    .filter(.has([.telegram, .phone]))
    .sorted(by: .lastName, descending: true)
    .page(limit: 50)
for contact in try store.contacts(matching: reachable) {
    print(contact.sectionKey, contact.displayName)
}

// snippet.sections
// The index: each non-empty section with its count, in index order. A
// section's rows are its own query; names only, for a list.
let everyone = ContactQuery()
let sections = try store.sections(matching: everyone)
for section in sections {
    let rows = try store.contacts(matching: everyone.filter(.section(section.sectionKey)),
                                  includingChildren: false)
    print(section.sectionKey, section.count, rows.map(\.displayName))
}

// snippet.observe
// Each commit, of this process or another, that changes the result
// yields it again, in the sectioned order: consecutive contacts of one
// section make that section.
let watching = Task {
    for try await contacts in store.observe(everyone) {
        var sectioned: [(key: String, contacts: [Contact])] = []
        for contact in contacts {
            if sectioned.last?.key == contact.sectionKey {
                sectioned[sectioned.count - 1].contacts.append(contact)
            } else {
                sectioned.append((contact.sectionKey, [contact]))
            }
        }
        print("now", sectioned.map { "\($0.key): \($0.contacts.count)" })
    }
}

// snippet.import
// JSON or vCard, one transaction: all of it or, on an error, nothing.
let card = """
    BEGIN:VCARD
    VERSION:4.0
    FN:Grace Hopper
    N:Hopper;Grace;;;
    EMAIL:grace@example.com
    END:VCARD

    """
let imported = try store.importContacts(Data(card.utf8), source: "grace.vcf")

// snippet.sync
// ContactsDBSync adds a CardDAV remote to a book (here a new book "home"):
// found from the server's URL, the password read from its source at each
// sync, never stored.
func syncWithServer(_ store: ContactStore) throws {
    try store.addRemote(Remote(name: "home", url: "https://dav.example.com/", username: "ada",
                               password: .environment("CONTACTS_PASSWORD")))
    let report = try store.sync(remote: "home", prefer: .server)
    print("pulled \(report.pulled.new) new, pushed \(report.pushed.changed) changed")
}
// snippet.end

watching.cancel()
print(ada.id, sections.count, imported)
try FileManager.default.removeItem(at: directory)
