import Foundation

/// A contact's rows as ``ContactWriter`` binds them: every value of its
/// `contact` row and of its child rows, encoded once, on the thread that
/// derived the contact, into one buffer. The writer then binds each value
/// where it lies, reading the buffer front to back, rather than gathering
/// the values from the draft's texts and lists, each stored apart, and
/// boxing them on the one thread an import cannot share.
///
/// The buffer starts with each table's section's offset (4 bytes each); a
/// section is its row count (4 bytes), then its rows; a value is a tag
/// byte, then an integer's 8 bytes, or a text's or blob's length (4 bytes)
/// and its bytes.
struct ContactRows: Sendable {
    /// A table whose rows are encoded: its section's index, its name and
    /// the columns each row's values are encoded for, in order; each child
    /// row starts with its `position` but for `nameWord`'s.
    struct Table: Sendable {
        let section: Int
        let name: String
        let columns: [String]

        static let contact = Table(section: 0, name: "contact", columns: [
            "firstName", "lastName", "company", "age", "displayName", "sortName", "sectionKey", "sortIndex", "sortKey",
            "firstNameKey", "lastNameKey", "companyKey", "companyFolded", "attributes", "nameWords", "kind",
            "formattedName",
        ] + ContactDetailColumns.text.map(\.key) + ["searchWords"])
        static let nameWord = Table(section: 1, name: "nameWord", columns: ["word"])
        static let phone = Table(section: 2, name: "phone", columns: [
            "position", "type", "value", "normalized", "preferred", "parameters", "display",
        ])
        static let email = Table(section: 3, name: "email", columns: [
            "position", "type", "value", "valueFolded", "preferred", "parameters",
        ])
        static let address = Table(section: 4, name: "address", columns: [
            "position", "type", "street1", "street2", "city", "state", "zipcode", "country", "cityFolded",
            "countryFolded", "poBox", "preferred", "parameters",
        ])
        static let messenger = Table(section: 5, name: "messenger", columns: ["position", "service", "handle", "parameters"])
        /// The whole card's lists (``CardList``), in its order.
        static let cardLists = CardList.all.enumerated().map { offset, list in
            Table(section: 6 + offset, name: list.table, columns: ["position"] + list.columns.map(\.name))
        }

        static let cardListCount = cardLists.count
        static let all = [contact, nameWord, phone, email, address, messenger] + cardLists
        /// The child tables, written after the contact's row with its key.
        static let children = Array(all.dropFirst())
        /// Each table's column count, by its section.
        fileprivate static let columnCounts = all.map(\.columns.count)
    }

    /// The sections' starts (4 bytes each), then the sections.
    private let bytes: [UInt8]

    init(_ draft: ContactDraft, _ derived: DerivedFields) {
        // Measured first and then written, each in one pass over the same
        // fields, so that the buffer is allocated once at its size.
        var size = Sizer()
        Self.encode(draft, derived, into: &size)
        bytes = [UInt8](unsafeUninitializedCapacity: size.count) { buffer, initialized in
            var writer = Writer(base: UnsafeMutableRawPointer(buffer.baseAddress!))
            Self.encode(draft, derived, into: &writer)
            assert(writer.offset == size.count, "the sizer and the writer disagree")
            initialized = writer.offset
        }
    }

    private static func encode<Sink: ValueSink>(_ draft: ContactDraft, _ derived: DerivedFields, into sink: inout Sink) {
        sink.beginSection(rows: 1)
        sink.text(draft.firstName); sink.text(draft.lastName); sink.text(draft.company); sink.int(draft.age)
        sink.text(derived.displayName); sink.text(derived.sortName); sink.text(derived.sectionKey); sink.int(derived.sortIndex)
        sink.blob(derived.sortKey); sink.blob(derived.firstNameKey); sink.blob(derived.lastNameKey); sink.blob(derived.companyKey)
        sink.text(derived.companyFolded); sink.int(derived.attributes.rawValue); sink.text(derived.nameWordsText)
        sink.text(draft.kind.rawValue); sink.text(derived.formattedName)
        var details = draft.details
        ContactDetailColumns.forEachText(of: &details) { _, value in sink.text(value) }
        sink.text(derived.searchWords)
        sink.beginSection(rows: derived.nameWords.count)
        for word in derived.nameWords { sink.blob(word) }
        sink.beginSection(rows: draft.phones.count)
        for (position, phone) in draft.phones.enumerated() {
            sink.int(position); sink.text(phone.type); sink.text(phone.value); sink.text(derived.phonesNormalized[position])
            sink.int(phone.preferred ? 1 : 0); sink.text(phone.parameters); sink.text(derived.phonesDisplayed[position])
        }
        sink.beginSection(rows: draft.emails.count)
        for (position, (email, folded)) in zip(draft.emails, derived.emailsFolded).enumerated() {
            sink.int(position); sink.text(email.type); sink.text(email.value); sink.text(folded)
            sink.int(email.preferred ? 1 : 0); sink.text(email.parameters)
        }
        sink.beginSection(rows: draft.addresses.count)
        for (position, (address, folded)) in zip(draft.addresses, derived.addressesFolded).enumerated() {
            sink.int(position); sink.text(address.type); sink.text(address.street1); sink.text(address.street2)
            sink.text(address.city); sink.text(address.state); sink.text(address.zipcode); sink.text(address.country)
            sink.text(folded.city); sink.text(folded.country); sink.text(address.poBox); sink.int(address.preferred ? 1 : 0)
            sink.text(address.parameters)
        }
        sink.beginSection(rows: draft.messengers.count)
        for (position, messenger) in draft.messengers.enumerated() {
            sink.int(position); sink.text(messenger.service); sink.text(messenger.handle); sink.text(messenger.parameters)
        }
        // Their texts are gathered only for a contact that holds any; the
        // others' empty sections are written without a look at the lists.
        guard details.hasLists else {
            for _ in 0..<Table.cardListCount { sink.beginSection(rows: 0) }
            return
        }
        for list in CardList.all {
            let rows = list.rows(of: details)
            sink.beginSection(rows: rows.count)
            for (position, texts) in rows.enumerated() {
                sink.int(position)
                for text in texts { sink.text(text) }
            }
        }
    }

    /// Binds the contact's row to `statement` from its first parameter
    /// and hands `body` the next one, to bind the rest and run it while
    /// the values are there.
    func withContactBound(to statement: SQLiteStatement, _ body: (Int32) throws -> Void) rethrows {
        try bytes.withUnsafeBytes { tape in
            var offset = Int(tape.loadUnaligned(fromByteOffset: Table.contact.section * 4, as: UInt32.self)) + 4
            try body(Self.bind(tape, at: &offset, count: Table.columnCounts[Table.contact.section], to: statement, from: 1))
        }
    }

    /// Runs `statement`, an insert of `pk` then `table`'s columns, for each
    /// of the contact's rows of that table.
    func insert(_ table: Table, pk: Int64, with statement: SQLiteStatement) throws {
        try bytes.withUnsafeBytes { tape in
            var offset = Int(tape.loadUnaligned(fromByteOffset: table.section * 4, as: UInt32.self))
            let rows = tape.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            offset += 4
            let columns = Table.columnCounts[table.section]
            for _ in 0..<rows {
                statement.bind(pk, at: 1)
                _ = Self.bind(tape, at: &offset, count: columns, to: statement, from: 2)
                try statement.run()
            }
        }
    }

    // MARK: - Non public

    private enum Tag: UInt8 {
        case null, int, text, blob
    }

    /// What takes the values in order: one measures, one writes.
    private protocol ValueSink {
        mutating func beginSection(rows: Int)
        mutating func int(_ value: Int?)
        mutating func text(_ value: String?)
        mutating func blob(_ value: Data?)
    }

    private struct Sizer: ValueSink {
        var count = Table.all.count * 4

        mutating func beginSection(rows: Int) { count += 4 }
        mutating func int(_ value: Int?) { count += value == nil ? 1 : 9 }
        mutating func text(_ value: String?) { count += value.map { 5 + $0.utf8.count } ?? 1 }
        mutating func blob(_ value: Data?) { count += value.map { 5 + $0.count } ?? 1 }
    }

    private struct Writer: ValueSink {
        let base: UnsafeMutableRawPointer
        var offset = Table.all.count * 4
        var section = 0

        mutating func beginSection(rows: Int) {
            base.storeBytes(of: UInt32(offset), toByteOffset: section * 4, as: UInt32.self)
            section += 1
            store(UInt32(rows))
        }

        mutating func int(_ value: Int?) {
            guard let value else { return tag(.null) }
            tag(.int)
            store(Int64(value))
        }

        mutating func text(_ value: String?) {
            guard let value else { return tag(.null) }
            tag(.text)
            if value.utf8.withContiguousStorageIfAvailable({ copy(UnsafeRawBufferPointer($0)) }) == nil {
                Array(value.utf8).withUnsafeBytes { copy($0) }
            }
        }

        mutating func blob(_ value: Data?) {
            guard let value else { return tag(.null) }
            tag(.blob)
            value.withUnsafeBytes { copy($0) }
        }

        private mutating func tag(_ tag: Tag) {
            base.storeBytes(of: tag.rawValue, toByteOffset: offset, as: UInt8.self)
            offset += 1
        }

        private mutating func store<T>(_ value: T) {
            base.storeBytes(of: value, toByteOffset: offset, as: T.self)
            offset += MemoryLayout<T>.size
        }

        /// A length, then the bytes.
        private mutating func copy(_ bytes: UnsafeRawBufferPointer) {
            store(UInt32(bytes.count))
            if let source = bytes.baseAddress { (base + offset).copyMemory(from: source, byteCount: bytes.count) }
            offset += bytes.count
        }
    }

    /// Binds `count` values from `offset` as parameters `first`… and
    /// returns the next parameter; the bytes must stay until the step.
    private static func bind(
        _ tape: UnsafeRawBufferPointer, at offset: inout Int, count: Int, to statement: SQLiteStatement, from first: Int32
    ) -> Int32 {
        var parameter = first
        for _ in 0..<count {
            let tag = Tag(rawValue: tape[offset])!
            offset += 1
            switch tag {
            case .null:
                statement.bindNull(at: parameter)
            case .int:
                statement.bind(tape.loadUnaligned(fromByteOffset: offset, as: Int64.self), at: parameter)
                offset += 8
            case .text, .blob:
                let length = Int(tape.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                let value = UnsafeRawBufferPointer(rebasing: tape[offset + 4..<offset + 4 + length])
                if tag == .text { statement.bindText(value, at: parameter) } else { statement.bindBlob(value, at: parameter) }
                offset += 4 + length
            }
            parameter += 1
        }
        return parameter
    }
}
