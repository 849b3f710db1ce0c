import Foundation
import GRDB

/// A contact's history (``HistoryRecords``) in the JSON format's terms:
/// a change kept as the JSON keys of the fields it changed and their
/// values before, a partial contact; an earlier version is the current
/// contact with each later change's values before applied, newest first,
/// as an import applies a partial contact.
package enum ContactHistory {
    // MARK: - Recording

    /// Keeps what changed from `old` to `new`, written at `revision`; a
    /// write that changed no field keeps nothing.
    package static func record(old: Contact, new: Contact, revision: Int, _ db: Database) throws {
        // A contact written twice in one transaction keeps the version
        // before the transaction, which its first write recorded.
        guard old.revision < revision else { return }
        let before = fields(old), after = fields(new)
        let beforeByKey = Dictionary(before, uniquingKeysWith: { first, _ in first })
        let afterByKey = Dictionary(after, uniquingKeysWith: { first, _ in first })
        let changed = after.filter { beforeByKey[$0.key] != $0.value }.map(\.key)
            + before.filter { afterByKey[$0.key] == nil }.map(\.key)
        guard !changed.isEmpty else { return }
        let undo = "{" + changed.map { JSONText.quote($0) + ": " + (beforeByKey[$0] ?? "null") }.joined(separator: ", ") + "}"
        try HistoryRecords.insert(HistoryRecords.Change(
            revision: revision, at: Date(), previousRevision: old.revision, previousAt: old.updatedAt,
            fields: JSONText.array(changed), before: undo), of: new.id, db)
    }

    /// A contact's fields as JSON by key, as the history compares them:
    /// the draft's, less what is derived from it, and its book.
    private static func fields(_ contact: Contact) -> [(key: String, value: String)] {
        var draft = contact.draft
        for index in draft.phones.indices { draft.phones[index].e164 = nil }
        return ContactJSONWriter.fields(draft) + [("book", JSONText.quote(contact.book))]
    }

    // MARK: - Reading

    /// The versions of a stored contact, newest (the current one) first.
    ///
    /// - throws: `.contactsNotFound`.
    package static func versions(of id: String, _ db: Database) throws -> [ContactVersion] {
        let current = try currentContact(id, db)
        let changes = try changes(of: id, db)
        var versions: [(revision: Int, at: Date, fields: [String]?)] = []
        // A write that kept no change (a favorite, a group, a restore from
        // the trash) made the current version.
        if changes.first?.revision != current.revision {
            versions.append((current.revision, current.updatedAt, nil))
        }
        versions += changes.map { ($0.revision, $0.at, keys($0.fields)) }
        if let oldest = changes.last { versions.append((oldest.previousRevision, oldest.previousAt, nil)) }
        let writes = try HistoryRecords.writes(of: versions.map(\.revision), db)
        let added = try HistoryRecords.addedRevision(of: id, db)
        return try versions.map { version in
            let write = writes[version.revision]
            // A version no change row describes changed every field it
            // holds when it added the contact; else what is not known.
            var fields = version.fields ?? []
            if version.fields == nil, version.revision == added || write.map({ Self.adds($0.by) }) ?? false {
                fields = ContactJSONWriter.fields(try draft(current, changes, at: version.revision))
                    .filter { $0.key != "id" && !["[]", "null", "false"].contains($0.value) }.map(\.key)
            }
            return ContactVersion(revision: version.revision, at: version.fields == nil ? write?.at ?? version.at : version.at,
                                  by: write?.by, fields: fields)
        }
    }

    /// Whether a write of this source adds the contacts it writes.
    private static func adds(_ source: ChangeSource) -> Bool {
        source == .add || source == .restore || source.rawValue.hasPrefix(ChangeSource.import(file: "").rawValue)
    }

    /// The contact's kept changes, newest first: those of this contact
    /// since it was added, and before that only when it came back from
    /// the trash (an id deleted and given to a new contact starts a
    /// history of its own). A restore before Schema/0024 recorded no
    /// return; its write says it.
    private static func changes(of id: String, _ db: Database) throws -> [HistoryRecords.Change] {
        let changes = try HistoryRecords.changes(of: id, db)
        guard let added = try HistoryRecords.addedRevision(of: id, db),
              try HistoryRecords.writes(of: [added], db)[added]?.by != .restore,
              try !TrashRecords.returned(id, at: added, db) else { return changes }
        return changes.filter { $0.previousRevision >= added }
    }

    /// The contact as it was at `revision`.
    ///
    /// - throws: `.contactsNotFound`, `.revisionNotInHistory` naming the
    ///   revisions kept.
    package static func contact(_ id: String, at revision: Int, _ db: Database) throws -> Contact {
        let versions = try versions(of: id, db)
        guard let version = versions.first(where: { $0.revision == revision }) else {
            throw ContactsDBError.revisionNotInHistory(id: id, revision: revision, available: versions.map(\.revision))
        }
        let current = try currentContact(id, db)
        let draft = try draft(current, try changes(of: id, db), at: revision)
        return Contact(draft, regions: try Settings.phoneRegions(db), book: current.book, createdAt: current.createdAt,
                       updatedAt: version.at, revision: revision)
    }

    private static func currentContact(_ id: String, _ db: Database) throws -> Contact {
        guard let current = try ContactReader.contacts(ids: [id], db).first else {
            throw ContactsDBError.contactsNotFound(ids: [id])
        }
        return current
    }

    private static func keys(_ array: String) -> [String] {
        (try? JSONSerialization.jsonObject(with: Data(array.utf8))) as? [String] ?? []
    }

    /// The current draft with every change after `revision` undone.
    private static func draft(
        _ current: Contact, _ changes: [HistoryRecords.Change], at revision: Int
    ) throws -> ContactDraft {
        var draft = current.draft
        for change in changes where change.revision > revision {
            try ContactJSON.decode(Data(change.before.utf8), source: "history").apply(to: &draft)
        }
        return draft
    }
}

extension ContactWriter {
    /// ``replace(pk:_:createdAt:updatedAt:keepingPhoto:)``, keeping in the
    /// contact's history what changed.
    ///
    /// - parameter previous: the contact as stored, with its children and
    ///   photo, when the caller has read it; nil reads it.
    package func replaceKeepingHistory(
        pk: Int64, _ draft: ContactDraft, createdAt: Date, updatedAt: Date, previous: Contact? = nil, _ db: Database
    ) throws {
        let old = try previous ?? ContactReader.withChildren(ContactReader.stored(pks: [pk], db), db).first
        try replace(pk: pk, draft, createdAt: createdAt, updatedAt: updatedAt)
        if let old, let new = try ContactReader.withChildren(ContactReader.stored(pks: [pk], db), db).first {
            try ContactHistory.record(old: old, new: new, revision: revision, db)
        }
    }
}
