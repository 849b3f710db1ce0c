import Foundation

/// The draft a merge of duplicates makes (docs/cli.md, "Duplicates and
/// merging"): the survivor joined, field by field as ``ContactField`` says,
/// with each other draft in the order given.
package struct ContactMerging {
    package var draft: ContactDraft
    package var keptApart: [MergeResult.KeptApart] = []

    /// The fields that together name a person: a survivor with any of them
    /// takes none from another (a formatted name or a middle name of
    /// someone else's spelling would not fit its own); one with none takes
    /// them all from the first other that has some.
    // Key paths are immutable values; only their type is not marked Sendable.
    nonisolated(unsafe) static let nameParts: [(name: String, field: WritableKeyPath<ContactDraft, String?>)] = [
        ("firstName", \.firstName), ("lastName", \.lastName),
    ] + DetailText.all.filter {
        ["namePrefix", "middleName", "nameSuffix", "phoneticFirstName", "phoneticMiddleName", "phoneticLastName",
         "formattedName"].contains($0.key)
    }.map { text in
        let details: WritableKeyPath<ContactDraft, ContactDetails> = \.details
        return (text.key, details.appending(path: text.field))
    }

    package init(survivor: ContactDraft, others: [ContactDraft]) {
        draft = survivor
        let partNames = Set(Self.nameParts.map(\.name))
        for var other in others {
            joinName(other)
            other.extra = Self.renumbered(other.extra, avoiding: draft.extra)
            for field in ContactField.all where !partNames.contains(field.name) {
                if let value = field.join(other, &draft) {
                    keptApart.append(MergeResult.KeptApart(id: other.id ?? "", field: field.name, value: value))
                }
            }
        }
    }

    private mutating func joinName(_ other: ContactDraft) {
        let hasName = Self.nameParts.contains { draft[keyPath: $0.field] != nil }
        for (name, field) in Self.nameParts {
            guard let value = other[keyPath: field] else { continue }
            if !hasName {
                draft[keyPath: field] = value
            } else if draft[keyPath: field].map({ Collation.fold($0) != Collation.fold(value) }) ?? true {
                keptApart.append(MergeResult.KeptApart(id: other.id ?? "", field: name, value: value))
            }
        }
    }

    /// `lines` with their Apple item groups (`item3.`) renumbered where the
    /// survivor's extra properties use the number, so that one card's
    /// X-ABLabel never labels the other's property.
    static func renumbered(_ lines: [String], avoiding kept: [String]) -> [String] {
        func item(_ line: String) -> Int? {
            guard line.lowercased().hasPrefix("item"), let dot = line.firstIndex(of: ".") else { return nil }
            return Int(line[line.index(line.startIndex, offsetBy: 4)..<dot])
        }
        var taken = Set(kept.compactMap(item))
        var renumbering: [Int: Int] = [:]
        for number in Set(lines.compactMap(item)).sorted() where taken.contains(number) {
            var next = (taken.max() ?? 0) + 1
            while taken.contains(next) { next += 1 }
            renumbering[number] = next
            taken.insert(next)
        }
        guard !renumbering.isEmpty else { return lines }
        return lines.map { line in
            guard let number = item(line), let new = renumbering[number], let dot = line.firstIndex(of: ".") else { return line }
            return "item\(new)" + line[dot...]
        }
    }
}
