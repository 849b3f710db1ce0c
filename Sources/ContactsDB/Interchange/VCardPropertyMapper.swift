import Foundation

/// Maps one card's content lines to a draft (docs/vcard.md, "vCard and
/// CSV"): every property the model holds to its field, and every other
/// line, verbatim, to `extra`, so that the card comes out again with
/// nothing lost. A property the model holds once (N, FN, BDAY, NOTE, …)
/// that comes again is kept in `extra` too, as is a value the field cannot
/// hold as written (a birthday that is not a date).
struct VCardPropertyMapper {
    /// The names of the lines kept in `extra`, one entry per line.
    private(set) var keptNames: [String] = []

    private var draft = ContactDraft()
    private var seen: Set<String> = []
    /// The first N, ORG or NICKNAME read into the fields whose spelling
    /// was not kept, by name: kept before a later line of its name, so
    /// that the writer tells the spelling from the repeats.
    private var unspelled: [String: String] = [:]

    /// PRODID, REV and VERSION describe the file, not the contact: the
    /// writer sets them on export.
    private static let fileProperties: Set<String> = ["VERSION", "PRODID", "REV"]

    /// The properties whose item group's X-ABLabel is their label.
    private static let labelled = Set(["TEL", "EMAIL", "ADR", "IMPP"] + VCardLists.readings.filter(\.value.isLabelled).keys)

    mutating func draft(from lines: [VCardContentLine]) throws -> ContactDraft {
        // Apple's item groups: `item1.TEL:…` labelled by `item1.X-ABLabel:…`.
        var labels: [String: String] = [:]
        for line in lines where line.name == "X-ABLABEL" {
            if let group = line.group?.lowercased() { labels[group] = line.text }
        }
        var labelledGroups: Set<String> = []
        for line in lines where line.name != "X-ABLABEL" {
            let text = line.group.flatMap { labels[$0.lowercased()] }
            // An empty X-ABLabel (Google's) labels nothing; a property that
            // holds no label (a grouped ORG) leaves its label in `extra`.
            let holdsLabel = Self.labelled.contains(line.name)
            let label = holdsLabel ? text.flatMap { $0.isEmpty ? nil : VCardLabels.label(abLabel: $0) } : nil
            if try map(line, label: label), holdsLabel, text != nil, let group = line.group {
                labelledGroups.insert(group.lowercased())
            }
        }
        // A label whose property was mapped went with it; any other stays.
        for line in lines where line.name == "X-ABLABEL" {
            if !labelledGroups.contains(line.group?.lowercased() ?? "") { keep(line) }
        }
        return draft
    }

    /// Maps one line to its field; false when it was kept in `extra`.
    private mutating func map(_ line: VCardContentLine, label: String?) throws -> Bool {
        if Self.fileProperties.contains(line.name) { return true }
        let isFirst = seen.insert(line.name).inserted
        if let text = DetailText.byVCardProperty[line.name] {
            guard isFirst, line.parameters.isEmpty else { return keep(line) }
            draft.details[keyPath: text.field] = Self.nonEmpty(line.text)
            return true
        }
        if let reading = VCardLists.readings[line.name] {
            if reading.read(line, label, &draft.details) { return true }
            return keep(line)
        }
        switch line.name {
        case "TEL": return mapPhone(line, label: label)
        case "EMAIL": return mapEmail(line, label: label)
        case "ADR": return mapAddress(line, label: label)
        case "IMPP": return mapMessenger(line, label: label)
        default: return mapHeldOnce(line, isFirst: isFirst)
        }
    }

    /// Maps a property the model holds once; a repeat of it, or a value
    /// its field cannot hold as written, is kept in `extra`.
    private mutating func mapHeldOnce(_ line: VCardContentLine, isFirst: Bool) -> Bool {
        switch line.name {
        case "N" where isFirst:
            let parts = Self.nameParts(line)
            (draft.lastName, draft.firstName, draft.middleName) = (parts[0], parts[1], parts[2])
            (draft.namePrefix, draft.nameSuffix) = (parts[3], parts[4])
            guard line.components.count <= 5, line.parameters.isEmpty else { return keepWhole(line, isFirst) }
            keepSpelling(line)
        case "FN" where isFirst && line.parameters.isEmpty:
            draft.formattedName = Self.nonEmpty(line.text)
        case "ORG" where isFirst:
            // One with parameters is kept whole, and the next one read.
            guard line.parameters.isEmpty else { return keepWhole(line, isFirst) }
            (draft.company, draft.department) = Self.organization(line)
            keepSpelling(line)
        case "NICKNAME" where isFirst:
            guard line.parameters.isEmpty else { return keepWhole(line, isFirst) }
            draft.nickname = Self.nickname(line)
            keepSpelling(line)
        case "UID" where isFirst:
            draft.id = Self.nonEmpty(line.text.trimmingCharacters(in: .whitespaces))
        case "KIND" where isFirst, "X-ABSHOWAS" where isFirst:
            let value = line.text.trimmingCharacters(in: .whitespaces).lowercased()
            switch (line.name, value) {
            case ("KIND", "org"), ("KIND", "organization"), ("X-ABSHOWAS", "company"): draft.kind = .organization
            case ("KIND", "individual"): break
            default: return keep(line)
            }
        case "BDAY" where isFirst:
            guard let date = Self.date(line) else { return keep(line) }
            draft.birthday = date
        case "PHOTO" where isFirst && line.group == nil:
            guard let photo = Self.photo(line) else { return keep(line) }
            draft.photo = photo
        case "CATEGORIES" where isFirst && line.parameters.isEmpty:
            draft.groups += VCardContentLine.components(line.value, separator: ",")
                .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        case "X-CONTACTSDB-AGE" where isFirst:
            guard let age = Int(line.text.trimmingCharacters(in: .whitespaces)) else { return keep(line) }
            draft.age = age
        case "X-CONTACTSDB-FAVORITE" where isFirst:
            draft.isFavorite = line.text.trimmingCharacters(in: .whitespaces).uppercased() == "TRUE"
        default:
            return keep(line)
        }
        return true
    }

    /// TEL: a `tel:` URI's number, or the text as written. An empty one,
    /// here and in the other lists, is kept in `extra`.
    private mutating func mapPhone(_ line: VCardContentLine, label: String?) -> Bool {
        let value = line.value.lowercased().hasPrefix("tel:") ? String(line.text.dropFirst(4)) : line.text
        guard !value.trimmingCharacters(in: .whitespaces).isEmpty else { return keep(line) }
        draft.phones.append(Phone(type: label ?? VCardLabels.label(types: line.types, fallback: "other"),
                                  value: value, preferred: Self.isPreferred(line), parameters: Self.unheld(line, label: label)))
        return true
    }

    /// EMAIL: the address as written.
    private mutating func mapEmail(_ line: VCardContentLine, label: String?) -> Bool {
        guard !line.text.trimmingCharacters(in: .whitespaces).isEmpty else { return keep(line) }
        draft.emails.append(Email(type: label ?? VCardLabels.label(types: line.types, fallback: "other"),
                                  value: line.text, preferred: Self.isPreferred(line), parameters: Self.unheld(line, label: label)))
        return true
    }

    /// ADR: its seven components, the missing ones empty; one with more
    /// is kept in `extra`.
    private mutating func mapAddress(_ line: VCardContentLine, label: String?) -> Bool {
        let parts = line.components
        guard parts.count <= 7, parts.contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
        else { return keep(line) }
        let padded = parts + Array(repeating: "", count: 7 - parts.count)
        draft.addresses.append(Address(
            type: label ?? VCardLabels.label(types: line.types, fallback: "other"), street1: padded[2],
            street2: padded[1], city: padded[3], state: padded[4], zipcode: padded[5], country: padded[6],
            poBox: padded[0], preferred: Self.isPreferred(line), parameters: Self.unheld(line, label: label)))
        return true
    }

    /// IMPP: any service. The five the filters know are stored by name; the
    /// handle drops a URI scheme that only repeats the service. An item
    /// label other than the service's name keeps the line in `extra`.
    private mutating func mapMessenger(_ line: VCardContentLine, label: String?) -> Bool {
        let uri = line.text.trimmingCharacters(in: .whitespaces)
        let scheme = uri.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        let serviceType = line.parameter("X-SERVICE-TYPE").first
        let given = serviceType ?? scheme
        let known = MessengerService(rawValue: given.lowercased())?.rawValue
        guard !uri.isEmpty, !given.isEmpty, uri.contains(":") || serviceType != nil,
              label == nil || label?.lowercased() == (known ?? given).lowercased() else { return keep(line) }
        // Apple's `x-apple:` scheme stands for "no scheme"; the service is
        // in X-SERVICE-TYPE.
        let isBareScheme = scheme.lowercased() == given.lowercased() || scheme.lowercased() == "x-apple"
        let handle = isBareScheme ? String(uri.dropFirst(scheme.count + 1)) : uri
        guard !handle.isEmpty else { return keep(line) }
        draft.messengers.append(Messenger(service: known ?? given, handle: handle,
                                          parameters: Self.unheld(line) { name, _ in name == "X-SERVICE-TYPE" }))
        return true
    }

    /// A photo given inline: base64 in 2.1 (`ENCODING=BASE64;JPEG`) and
    /// 3.0 (`ENCODING=b;TYPE=JPEG`), a `data:` URI in 4.0. Nil for a photo
    /// by URL, or one with parameters the model cannot give back, which
    /// stay in `extra`; Apple's crop rectangle describes a crop the engine
    /// makes itself, and goes.
    private static func photo(_ line: VCardContentLine) -> ContactPhoto? {
        let known: Set<String> = ["ENCODING", "TYPE", "VALUE", "MEDIATYPE"]
        guard line.parameters.allSatisfy({ known.contains($0.name) || $0.values.isEmpty || $0.name.hasPrefix("X-ABCROP") })
        else { return nil }
        // A TYPE that names no image type (Evolution's HOME, WORK) is kept
        // with the line, in `extra`.
        guard line.types.filter({ $0 != "base64" }).count <= 1,
              line.types.allSatisfy({ $0 == "base64" || VCardWriter.isImageType($0) }) else { return nil }
        let encoding = line.parameter("ENCODING").first?.uppercased()
        var base64 = Substring(line.value)
        var declared = line.types.first { $0 != "base64" }.map { $0.contains("/") ? $0 : "image/" + ($0 == "jpg" ? "jpeg" : $0) }
        if encoding == "B" || encoding == "BASE64" || line.has("BASE64") {
            // The type is in TYPE (or 2.1's bare parameter).
        } else if base64.prefix(5).lowercased() == "data:", let comma = base64.firstIndex(of: ",") {
            let head = base64[base64.index(base64.startIndex, offsetBy: 5)..<comma]
            guard head.lowercased().hasSuffix(";base64") else { return nil }
            declared = head.dropLast(7).isEmpty ? declared : String(head.dropLast(7)).lowercased()
            base64 = base64[base64.index(after: comma)...]
        } else {
            return nil
        }
        guard let data = Data(base64Encoded: withoutWhiteSpace(base64)), !data.isEmpty else { return nil }
        guard let declared else { return ContactPhoto(data: data) }
        return ContactPhoto(mediaType: declared, data: data)
    }

    /// A photo's base64 text without the white space folding may leave in
    /// it. Byte by byte when it is ASCII, as base64 is: by characters, a
    /// 100 KB photo's text took a third of a photo-heavy import's time.
    static func withoutWhiteSpace(_ text: Substring) -> Data {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return Data(String(text.filter { !$0.isWhitespace }).utf8) }
        // ASCII's white space: tab, line feed, vertical tab, form feed,
        // carriage return and space.
        return Data(text.utf8.filter { !(0x09...0x0D).contains($0) && $0 != 0x20 })
    }

    /// Keeps a line verbatim in `extra`; returns false.
    @discardableResult
    private mutating func keep(_ line: VCardContentLine) -> Bool {
        if line.parameters.isEmpty, let first = unspelled.removeValue(forKey: line.name) { draft.extra.append(first) }
        draft.extra.append(line.keptText)
        keptNames.append(line.name)
        return false
    }

    // MARK: - N, ORG and NICKNAME

    /// The properties whose own spelling `extra` may keep.
    static let keptSpellingNames: Set<String> = ["N", "ORG", "NICKNAME"]

    /// N's five components: family, given, middle, prefix, suffix. A
    /// component's list of values (`Philip,Paul`) is one text.
    static func nameParts(_ line: VCardContentLine) -> [String?] {
        let parts = line.components + Array(repeating: "", count: 5)
        return parts[0..<5].map(nonEmpty)
    }

    /// ORG's organization, and its units as one department (`;`-joined).
    static func organization(_ line: VCardContentLine) -> (company: String?, department: String?) {
        let parts = line.components
        return (nonEmpty(parts[0]), nonEmpty(parts.dropFirst().joined(separator: ";")))
    }

    /// NICKNAME's values as one text, `,`-joined.
    static func nickname(_ line: VCardContentLine) -> String? {
        nonEmpty(VCardContentLine.components(line.value, separator: ",").joined(separator: ","))
    }

    /// True for an N, ORG or NICKNAME whose structure the fields cannot
    /// say again: the writer escapes every comma and semicolon of a field,
    /// so a list of values in one component, or an ORG of several units,
    /// would come out as one text; and one in an item group.
    static func needsKeptSpelling(_ line: VCardContentLine) -> Bool {
        guard line.parameters.isEmpty, keptSpellingNames.contains(line.name) else { return false }
        // An item group ties the line to its X-ABLabel, kept in `extra`.
        if line.group != nil { return true }
        switch line.name {
        case "N", "NICKNAME": return VCardContentLine.holdsUnescaped(",", in: line.value)
        default: return line.components.count > 2
        }
    }

    /// Keeps the line's own spelling beside the fields read from it, where
    /// the writer could not spell it again (``VCardWriter/KeptSpellings``).
    private mutating func keepSpelling(_ line: VCardContentLine) {
        if Self.needsKeptSpelling(line) {
            draft.extra.append(line.keptText)
        } else {
            unspelled[line.name] = line.keptText
        }
    }

    /// Keeps the whole line (an N with more than five components, or an
    /// N, ORG or NICKNAME with parameters) instead of the fields read from
    /// it, which the next line of its name gives.
    private mutating func keepWhole(_ line: VCardContentLine, _ isFirst: Bool) -> Bool {
        if line.name == "N" {
            (draft.lastName, draft.firstName, draft.middleName, draft.namePrefix, draft.nameSuffix) = (nil, nil, nil, nil, nil)
        }
        if isFirst { seen.remove(line.name) }
        return keep(line)
    }

    /// The parameters the model does not hold, as written and `;`-joined
    /// (an Evolution slot, a PREF of 2, 4.0's LABEL or GEO), or nil. By
    /// default a label and a preference are held: TYPE, 2.1's bare types,
    /// VALUE and PREF=1.
    static func unheld(
        _ line: VCardContentLine,
        holding isHeld: (_ name: String, _ values: [String]) -> Bool = { name, values in
            values.isEmpty || name == "TYPE" || name == "VALUE" || (name == "PREF" && values == ["1"])
        }
    ) -> String? {
        let kept = zip(line.parameters, line.writtenParameters).filter { !isHeld($0.0.name, $0.0.values) }.map(\.1)
        return kept.isEmpty ? nil : kept.joined(separator: ";")
    }

    /// As above; where an X-ABLabel gives the label, the TYPE values beside
    /// it (Apple's `ITEM1.EMAIL;TYPE=WORK` labelled `SpecialLabel`) are no
    /// part of it and are kept too, but a bare preference.
    private static func unheld(_ line: VCardContentLine, labelled: Bool) -> String? {
        guard labelled else { return unheld(line) }
        return unheld(line) { name, values in
            name == "VALUE" || (name == "PREF" && (values == ["1"] || values.isEmpty))
                || (name == "TYPE" && values.allSatisfy { $0.lowercased() == "pref" })
        }
    }

    /// As above for a labelled value (TEL, EMAIL, ADR), and a TYPE=other
    /// the card gave: the label `other` is also an untyped value's, which
    /// is written without a TYPE, so the card's own TYPE=other is kept as
    /// a parameter.
    private static func unheld(_ line: VCardContentLine, label: String?) -> String? {
        let unheld = unheld(line, labelled: label != nil)
        guard label == nil, line.types.contains("other"),
              VCardLabels.label(types: line.types, fallback: "") == WellKnownLabel.other.rawValue else { return unheld }
        return (["TYPE=other"] + [unheld].compactMap { $0 }).joined(separator: ";")
    }

    static func isPreferred(_ line: VCardContentLine) -> Bool {
        line.types.contains("pref") || line.parameter("PREF").contains("1")
    }

    /// A BDAY or date value as `YYYY-MM-DD` or `--MM-DD`: from ISO 8601's
    /// basic or extended form (`19750412`, `1975-04-12`, `--0412`,
    /// `--04-12`), and Apple's year-omitted form (`1604-04-12` with
    /// X-APPLE-OMIT-YEAR=1604). Nil for a text, a time of day or other
    /// parameters, which stay as written in `extra`.
    static func date(_ line: VCardContentLine) -> String? {
        guard line.parameters.allSatisfy({ ["VALUE", "X-APPLE-OMIT-YEAR"].contains($0.name) }),
              line.parameter("VALUE").allSatisfy({ $0.lowercased() == "date" }) else { return nil }
        let text = line.text.trimmingCharacters(in: .whitespaces)
        let digits = text.filter(\.isNumber)
        let yearless = text.hasPrefix("--")
        let extended = text.contains("-") && !yearless || (yearless && text.dropFirst(2).contains("-"))
        guard text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }) else { return nil }
        let form: String
        switch (yearless, digits.count, extended) {
        case (true, 4, false) where text.count == 6, (true, 4, true) where text.count == 7:
            form = "--" + digits.prefix(2) + "-" + digits.suffix(2)
        case (false, 8, false) where text.count == 8, (false, 8, true) where text.count == 10:
            form = digits.prefix(4) + "-" + digits.dropFirst(4).prefix(2) + "-" + digits.suffix(2)
        default:
            return nil
        }
        guard var date = PartialDate(form) else { return nil }
        if let omitted = line.parameter("X-APPLE-OMIT-YEAR").first, Int(omitted) == date.year { date.year = nil }
        else if !line.parameter("X-APPLE-OMIT-YEAR").isEmpty { return nil }
        return date.text
    }

    private static func nonEmpty(_ text: String) -> String? {
        text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : text
    }
}
