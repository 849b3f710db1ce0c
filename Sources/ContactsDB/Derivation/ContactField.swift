/// Every field of a draft but its id, each declared once by its JSON name
/// with how it compares and how merging joins it: the sync's three-way
/// merge takes a field from one side or the other by these, and merging
/// duplicates (docs/cli.md, "Duplicates and merging") fills and unions by
/// them. The texts of the card come from ``DetailText``.
package struct ContactField: Sendable {
    package let name: String
    /// The field's value as the sync compares it (groups as a set).
    package let value: @Sendable (ContactDraft) -> AnyHashable
    /// Sets the field of the second draft to the first's.
    package let copy: @Sendable (ContactDraft, inout ContactDraft) -> Void
    /// Gives the survivor of a merge what another contact holds of the
    /// field: a value it lacks, the list items it lacks. Returns the
    /// other's value, as text, where the survivor has a different one,
    /// which it keeps; nil when nothing was left out.
    package let join: @Sendable (ContactDraft, inout ContactDraft) -> String?

    /// Every field, in the JSON format's order.
    package static let all: [ContactField] = [
        ContactField("kind", \.details.kind),
        single("firstName", \.firstName), single("lastName", \.lastName), single("company", \.company),
        single("age", \.age),
        ContactField("favorite", \.isFavorite, compared: { $0 }, join: { $0 || $1 }),
        ContactField("groups", \.groups, compared: { Set($0) }, join: union { $0.lowercased() }),
    ] + DetailText.all.map { text in
        let details: WritableKeyPath<ContactDraft, ContactDetails> = \.details
        return single(text.key, details.appending(path: text.field))
    } + CardList.all.map { list in
        ContactField(name: list.key, value: { list.value(of: $0.details) },
                     copy: { list.copy(from: $0.details, to: &$1.details) },
                     join: { other, survivor in list.join(other.details, into: &survivor.details); return nil })
    } + [
        ContactField("photo", \.details.photo, compared: { $0 }) { survivor, other in survivor ?? other },
        list("phones", \.phones) { $0.e164 ?? String($0.value.unicodeScalars.filter { ("0"..."9").contains($0) }) },
        list("emails", \.emails) { $0.value.lowercased() },
        list("addresses", \.addresses) {
            [$0.poBox, $0.street1, $0.street2, $0.city, $0.state, $0.zipcode, $0.country].map { $0.lowercased() }
        },
        list("messengers", \.messengers) { [$0.service.lowercased(), $0.handle.lowercased()] },
    ]

    /// Whether the two drafts hold the same contact, whatever their ids:
    /// every field compares equal.
    package static func holdSame(_ a: ContactDraft, _ b: ContactDraft) -> Bool {
        all.allSatisfy { $0.value(a) == $0.value(b) }
    }

    // MARK: - Non public

    private init(
        name: String, value: @escaping @Sendable (ContactDraft) -> AnyHashable,
        copy: @escaping @Sendable (ContactDraft, inout ContactDraft) -> Void,
        join: @escaping @Sendable (ContactDraft, inout ContactDraft) -> String?
    ) {
        (self.name, self.value, self.copy, self.join) = (name, value, copy, join)
    }

    /// A field compared as it is, which the survivor keeps.
    private init<T: Hashable & Sendable>(_ name: String, _ keyPath: WritableKeyPath<ContactDraft, T>) {
        self.init(name, keyPath, compared: { $0 }) { survivor, other in
            survivor == other ? nil : String(describing: other)
        }
    }

    private init<T: Sendable, Key: Hashable>(
        _ name: String, _ keyPath: WritableKeyPath<ContactDraft, T>, compared: @escaping @Sendable (T) -> Key,
        join: @escaping @Sendable (T, T) -> T
    ) {
        self.init(name, keyPath, compared: compared) { survivor, other in
            survivor = join(survivor, other)
            return nil
        }
    }

    private init<T: Sendable, Key: Hashable>(
        _ name: String, _ keyPath: WritableKeyPath<ContactDraft, T>, compared: @escaping @Sendable (T) -> Key,
        taking: @escaping @Sendable (inout T, T) -> String?
    ) {
        // Key paths are immutable values; only their type is not marked Sendable.
        nonisolated(unsafe) let keyPath = keyPath
        self.init(name: name, value: { AnyHashable(compared($0[keyPath: keyPath])) },
                  copy: { source, target in target[keyPath: keyPath] = source[keyPath: keyPath] },
                  join: { other, survivor in taking(&survivor[keyPath: keyPath], other[keyPath: keyPath]) })
    }

    /// An optional value: one the survivor lacks comes from the other.
    private static func single<T: Hashable & Sendable>(_ name: String, _ keyPath: WritableKeyPath<ContactDraft, T?>)
        -> ContactField {
        ContactField(name, keyPath, compared: { $0 }) { survivor, other in
            guard let other else { return nil }
            guard let current = survivor else {
                survivor = other
                return nil
            }
            return Self.isSame(current, other) ? nil : String(describing: other)
        }
    }

    /// A list: the survivor gains the other's items whose `identity` it
    /// holds none of, in their order.
    private static func list<T: Hashable & Sendable, Key: Hashable>(
        _ name: String, _ keyPath: WritableKeyPath<ContactDraft, [T]>, identity: @escaping @Sendable (T) -> Key
    ) -> ContactField {
        ContactField(name, keyPath, compared: { $0 }, join: union(identity))
    }

    /// Texts equal at ICU primary strength ("anna", "Anna") are one value.
    private static func isSame<T: Equatable>(_ a: T, _ b: T) -> Bool {
        if let a = a as? String, let b = b as? String { return Collation.fold(a) == Collation.fold(b) }
        return a == b
    }

    private static func union<T, Key: Hashable>(_ identity: @escaping @Sendable (T) -> Key) -> @Sendable ([T], [T]) -> [T] {
        { survivor, other in
            var seen = Set(survivor.map(identity))
            return survivor + other.filter { seen.insert(identity($0)).inserted }
        }
    }
}
