import ContactsDB
import Foundation

/// Prints contacts in each output format.
enum ContactPrinter {
    static let noMatch = "No contacts match these filters."

    /// - parameter regions: the database's default phone regions, which
    ///   decide how a table shows numbers.
    /// - parameter showingBooks: whether a table names each contact's book,
    ///   as it does when the database has several.
    static func print(_ contacts: [Contact], as format: OutputFormat, regions: PhoneRegions, showingBooks: Bool = false) {
        switch format {
        case .table:
            ContactsDBCLI.print(table(contacts, regions: regions, showingBooks: showingBooks), terminator: "")
        case .json, .ndjson:
            printJSON(contacts.map(\.jsonText), lines: format == .ndjson)
        case .csv:
            ContactsDBCLI.print(csv(contacts), terminator: "")
        }
    }

    /// JSON objects as one array (json) or one a line (ndjson).
    static func printJSON(_ objects: [String], lines: Bool) {
        guard !lines else { return objects.forEach { ContactsDBCLI.print($0) } }
        var array = JSONOutput.ArrayPrinter()
        for object in objects { array.append(object) }
        array.finish()
    }

    /// Aligned columns: name, first phone (display form), first email,
    /// messenger services, whether there is a photo, the book (when
    /// `showingBooks`), id. "+N" marks further phones or emails.
    static func table(_ contacts: [Contact], regions: PhoneRegions, showingBooks: Bool = false) -> String {
        guard !contacts.isEmpty else { return noMatch + "\n" }
        func more(_ count: Int) -> String { count > 1 ? " +\(count - 1)" : "" }
        let header = ["NAME", "PHONE", "EMAIL", "MESSENGERS", "PHOTO"] + (showingBooks ? ["BOOK"] : []) + ["ID"]
        let rows = contacts.map { contact in
            [
                contact.displayName.isEmpty ? "(no name)" : contact.displayName,
                (contact.phones.first?.displayValue(regions: regions) ?? "") + more(contact.phones.count),
                (contact.emails.first?.value ?? "") + more(contact.emails.count),
                contact.messengers.map(\.service).joined(separator: ", "),
                contact.hasPhoto ? "yes" : "",
            ] + (showingBooks ? [contact.book] : []) + [contact.id]
        }
        return alignedColumns([header] + rows)
    }

    /// One contact with every field and child, for `show`; its book when
    /// `showingBook`.
    static func detail(_ contact: Contact, regions: PhoneRegions, showingBook: Bool = false) -> String {
        var lines: [(String, String)] = [
            ("id", contact.id),
            ("book", showingBook ? contact.book : ""),
            ("uid", contact.uid ?? ""),
            ("first name", contact.firstName ?? ""),
            ("last name", contact.lastName ?? ""),
            ("company", contact.company ?? ""),
            ("age", contact.age.map(String.init) ?? ""),
            ("section", contact.sectionKey),
        ]
        lines += contact.phones.map { ("phone (\($0.type))", $0.displayValue(regions: regions)) }
        lines += contact.emails.map { ("email (\($0.type))", $0.value) }
        lines += contact.addresses.map { address in
            let parts = [address.street1, address.street2, address.city, address.state, address.zipcode, address.country]
            return ("address (\(address.type))", parts.filter { !$0.isEmpty }.joined(separator: ", "))
        }
        lines += contact.messengers.map { ($0.service, $0.handle) }
        lines += wholeCard(contact)
        if let photo = contact.photo {
            lines.append(("photo", "\(photo.mediaType), \(photo.data.count) bytes"))
        }
        lines += [
            ("created", Timestamp.string(from: contact.createdAt)),
            ("updated", Timestamp.string(from: contact.updatedAt)),
            ("revision", String(contact.revision)),
        ]
        let shown = lines.filter { !$0.1.isEmpty }
        let width = shown.map { Terminal.width($0.0) }.max() ?? 0
        // A note's later lines start under its first.
        let indent = "\n" + String(repeating: " ", count: width + 4)
        return contact.displayName + "\n" + shown.map { label, value in
            "  " + Terminal.padded(label + ":", to: width + 1) + " " + value.split(separator: "\n", omittingEmptySubsequences: false)
                .joined(separator: indent) + "\n"
        }.joined()
    }

    /// The card's fields past the first ones, as the registries declare
    /// them (``DetailText``, ``CardList``), so that a new one shows too:
    /// the kind, the texts, each list's entries, groups and favorite.
    private static func wholeCard(_ contact: Contact) -> [(String, String)] {
        var lines = [("kind", contact.kind == .organization ? ContactKind.organization.rawValue : "")]
        lines += DetailText.all.map { (spoken($0.key), contact.details[keyPath: $0.field] ?? "") }
        for list in CardList.all {
            // The label goes beside the item's name; vCard parameters are
            // the card's business, not a reader's.
            let label = list.columns.firstIndex { $0.name == "type" }
            let shown = list.columns.indices.filter { $0 != label && list.columns[$0].rule != .parameters }
            lines += list.rows(of: contact.details).map { row in
                let values = shown.compactMap { row[$0] }.filter { !$0.isEmpty }
                return (spoken(list.item) + (label.map { " (\(row[$0] ?? ""))" } ?? ""), values.joined(separator: ", "))
            }
        }
        return lines + [("groups", contact.groups.joined(separator: ", ")), ("favorite", contact.isFavorite ? "yes" : "")]
    }

    /// A key as words: `phoneticFirstName` is "phonetic first name".
    private static func spoken(_ key: String) -> String {
        key.reduce(into: "") { words, character in
            words += character.isUppercase ? " " + character.lowercased() : String(character)
        }
    }

    /// The rows as lines of columns two spaces apart, each as wide as its
    /// widest cell; the last column is not padded.
    static func alignedColumns(_ rows: [[String]]) -> String {
        // Each cell is measured once and the text made in one string: a
        // table of thousands of rows (`birthdays`) is a large part of its
        // command's work (docs/performance.md).
        let cellWidths = rows.map { $0.map(Terminal.width) }
        let widths = rows[0].indices.map { column in cellWidths.map { $0[column] }.max() ?? 0 }
        let spaces = String(repeating: " ", count: (widths.max() ?? 0) + 2)
        var text = ""
        text.reserveCapacity(rows.count * (widths.reduce(0, +) + 2 * widths.count))
        for (row, rowWidths) in zip(rows, cellWidths) {
            for (column, cell) in row.enumerated() {
                text += cell
                if column < row.count - 1 {
                    text.append(contentsOf: Substring(spaces.utf8.prefix(widths[column] - rowWidths[column] + 2)))
                }
            }
            text += "\n"
        }
        return text
    }

    /// The contacts as CSV, with as many numbered columns as they need.
    static func csv(_ contacts: [Contact]) -> String {
        let table = CSVTable(maxChildren: ChildCounts(mostIn: contacts))
        return table.header + contacts.map(table.row).joined()
    }
}
