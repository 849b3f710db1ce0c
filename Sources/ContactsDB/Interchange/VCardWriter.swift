import Foundation

extension Contact {
    /// The contact as one vCard, every field the model holds (docs/vcard.md,
    /// "vCard and CSV"): registered labels as TYPE values, others as Apple's
    /// item groups with X-ABLabel; vCard 3.0 gets Apple's forms where 3.0 has
    /// none (X-ABShowAs, X-ABDATE, X-ABRELATEDNAMES, a year-omitted BDAY); age
    /// and favorite as X-CONTACTSDB-AGE and -FAVORITE; and the extra properties
    /// as read. Lines end in CRLF and fold at 75 octets.
    ///
    /// - parameter version: vCard 3.0 or 4.0.
    /// - parameter categories: false leaves the groups out, for an export
    ///   that writes them as group cards.
    public func vCard(version: VCardVersion = .v4, categories: Bool = true) -> String {
        var card = VCardWriter.Card(version: version, extra: details.extra)
        card.add("VERSION:\(version.rawValue)")
        card.add("PRODID:-//contactsdb//contactsdb//EN")
        card.add("UID:\(VCardWriter.escape(cardUID))")
        if details.kind == .organization {
            card.add(version == .v4 ? "KIND:org" : "X-ABShowAs:COMPANY")
        }
        card.add("FN:\(VCardWriter.escape(details.formattedName ?? displayName))")
        let kept = VCardWriter.KeptSpellings(of: self)
        card.add(kept.spelling("N") ?? "N:" + VCardWriter.structured(
            [lastName, firstName, details.middleName, details.namePrefix, details.nameSuffix]))
        if let nickname = details.nickname { card.add(kept.spelling("NICKNAME") ?? "NICKNAME:" + VCardWriter.escape(nickname)) }
        if company != nil || details.department != nil {
            card.add(kept.spelling("ORG") ?? "ORG:" + VCardWriter.structured([company ?? "", details.department]))
        }
        for (property, text) in DetailText.inVCard { card.addText(property, details[keyPath: text.field]) }
        if let birthday = details.birthday { card.addDate("BDAY", birthday) }
        card.addLists(of: details, at: .afterBirthday)
        for phone in phones {
            card.addLabelled("TEL", phone.type, preferred: phone.preferred, phone.parameters, VCardWriter.escape(phone.value))
        }
        for email in emails {
            card.addLabelled("EMAIL", email.type, preferred: email.preferred, email.parameters, VCardWriter.escape(email.value))
        }
        for address in addresses {
            let parts = [address.poBox, address.street2, address.street1, address.city, address.state, address.zipcode, address.country]
            card.addLabelled("ADR", address.type, preferred: address.preferred, address.parameters,
                             VCardWriter.structured(parts))
        }
        card.addLists(of: details, at: .afterAddresses)
        for messenger in messengers { card.add(VCardWriter.impp(messenger)) }
        card.addLists(of: details, at: .afterMessengers)
        if categories, !groups.isEmpty { card.add(VCardCategories.line(groups)) }
        if let age { card.add("X-CONTACTSDB-AGE:\(age)") }
        if isFavorite { card.add("X-CONTACTSDB-FAVORITE:TRUE") }
        if let photo = details.photo { card.add(VCardWriter.photo(photo, version: version)) }
        for line in details.extra where !kept.isSpelling(line) { card.add(VCardWriter.extraLine(line, version: version)) }
        return card.text
    }
}

/// How a card names its groups, for the writer and for a sync that keeps a
/// card's own CATEGORIES as they came.
package enum VCardCategories {
    package static func line(_ groups: [String]) -> String {
        "CATEGORIES:" + groups.map { VCardWriter.escape($0) }.joined(separator: ",")
    }
}

enum VCardWriter {
    /// One card's lines as they are added, with the item groups it numbers.
    struct Card {
        let version: VCardVersion
        private var lines = ["BEGIN:VCARD"]
        private var items = 0
        /// Item numbers the extra properties use, never given to another.
        private let takenItems: Set<Int>

        init(version: VCardVersion, extra: [String]) {
            self.version = version
            takenItems = Set(extra.compactMap { line in
                guard line.lowercased().hasPrefix("item"), let dot = line.firstIndex(of: ".") else { return nil }
                return Int(line[line.index(line.startIndex, offsetBy: 4)..<dot])
            })
        }

        var text: String {
            (lines + ["END:VCARD"]).map(VCardWriter.fold).joined(separator: "\r\n") + "\r\n"
        }

        /// Adds a content line. A line break never reaches the card raw,
        /// whatever a value held (an extra line or parameters stored by an
        /// older build): it is written `\n`, so it cannot begin a property
        /// of its own (docs/vcard.md, "Line breaks").
        mutating func add(_ line: String) {
            lines.append(line.utf8.contains { $0 == 0x0A || $0 == 0x0D } ? VCardWriter.escapingLineBreaks(line) : line)
        }

        mutating func addText(_ name: String, _ value: String?) {
            if let value { add("\(name):\(VCardWriter.escape(value))") }
        }

        /// A property in a new item group, labelled by X-ABLabel.
        mutating func addItem(_ line: String, label: String) {
            repeat { items += 1 } while takenItems.contains(items)
            add("item\(items).\(line)")
            add("item\(items).X-ABLabel:\(VCardWriter.escape(VCardLabels.abLabel(for: label)))")
        }

        /// A property with its label as TYPE values, or in an item group,
        /// and the parameters the model does not hold as they came.
        mutating func addLabelled(_ name: String, _ label: String, preferred: Bool, _ kept: String?, _ value: String) {
            var parameters = ""
            let types = label == WellKnownLabel.other.rawValue ? [] : VCardLabels.types(for: label)
            if let types, !types.isEmpty {
                parameters += ";TYPE=" + (version == .v3 ? types.map { $0.uppercased() } : types).joined(separator: ",")
            }
            if preferred { parameters += version == .v4 ? ";PREF=1" : ";TYPE=pref" }
            if let kept { parameters += ";" + kept }
            if types == nil {
                addItem(name + parameters + ":" + value, label: label)
            } else {
                add(name + parameters + ":" + value)
            }
        }

        /// A date: 4.0's basic form (`19750412`, `--0412`); 3.0's extended
        /// form, a year-omitted one as Apple writes it.
        mutating func addDate(_ name: String, _ value: String, label: String? = nil, parameters kept: String? = nil) {
            guard let date = PartialDate(value) else { return }
            var line: String
            switch (version, date.year) {
            case (.v4, nil):
                line = "\(name):--" + date.text.dropFirst(2).filter { $0 != "-" }
            case (.v4, _):
                line = "\(name):" + date.text.filter { $0 != "-" }
            case (.v3, nil):
                line = "\(name);X-APPLE-OMIT-YEAR=1604:1604" + date.text.dropFirst(1)
            case (.v3, _):
                line = "\(name):\(date.text)"
            }
            if let kept, let colon = line.firstIndex(of: ":") { line.insert(contentsOf: ";" + kept, at: colon) }
            if let label { addItem(line, label: label) } else { add(line) }
        }
    }

    /// The card's own spellings of N, ORG and NICKNAME that `extra` keeps
    /// where the fields cannot say them again (a list of values in one
    /// component, an ORG of several units; ``VCardPropertyMapper``): each
    /// is written in place of the field's line while the fields still read
    /// as it does, and dropped once they were edited.
    struct KeptSpellings {
        private var lines: [String: String] = [:]
        private var all: Set<String> = []

        init(of contact: Contact) {
            let details = contact.details
            var named: Set<String> = []
            for text in details.extra {
                // Most extra lines are no spelling (a photo among them, of
                // megabytes): their names are looked at before they are read.
                let name = text.prefix { $0 != ":" && $0 != ";" }.split(separator: ".").last.map { $0.uppercased() }
                // Only the first line of its name without parameters may be
                // the spelling: the reader keeps that before any later line
                // of the name, which is a line of the card of its own.
                guard let name, VCardPropertyMapper.keptSpellingNames.contains(name),
                      let line = VCardContentLine(Array(text.utf8), legacyCharset: .utf8), line.parameters.isEmpty,
                      named.insert(line.name).inserted else { continue }
                let current: Bool
                switch line.name {
                case "N":
                    current = VCardPropertyMapper.nameParts(line)
                        == [contact.lastName, contact.firstName, details.middleName, details.namePrefix, details.nameSuffix]
                case "ORG":
                    let organization = VCardPropertyMapper.organization(line)
                    current = organization.company == contact.company && organization.department == details.department
                default:
                    current = VCardPropertyMapper.nickname(line) == details.nickname
                }
                if current {
                    lines[line.name] = text
                    all.insert(text)
                } else if VCardPropertyMapper.needsKeptSpelling(line) {
                    all.insert(text)  // stale: the fields were changed since
                }
            }
        }

        /// The kept line for `name` when the fields still read as it does.
        func spelling(_ name: String) -> String? { lines[name] }

        /// True for a line kept as a spelling, written in place or stale.
        func isSpelling(_ line: String) -> Bool { all.contains(line) }
    }

    /// RELATED's TYPE values in vCard 4.0 (RFC 6350 §6.6.6).
    static let relatedTypes: Set<String> = [
        "contact", "acquaintance", "friend", "met", "co-worker", "colleague", "co-resident", "neighbor", "child",
        "parent", "sibling", "spouse", "kin", "muse", "crush", "date", "sweetheart", "me", "agent", "emergency",
    ]

    /// A 4.0 `data:` URI's bytes as vCard 3.0 carries them: ENCODING=b,
    /// the media type's subtype as a TYPE (`image/png` → PNG), the other
    /// parameters as they were but 4.0's MEDIATYPE; nil for any other line.
    private static func inlineData(_ line: VCardContentLine) -> String? {
        guard line.value.prefix(5).lowercased() == "data:", let comma = line.value.firstIndex(of: ","),
              line.value[..<comma].lowercased().hasSuffix(";base64") else { return nil }
        let media = line.value[line.value.index(line.value.startIndex, offsetBy: 5)..<comma].dropLast(7)
        var parsed = line
        var parameters = ["ENCODING=b"] + line.writtenParameters.filter { !$0.uppercased().hasPrefix("MEDIATYPE=") }
        if let subtype = media.split(separator: "/").last, !subtype.isEmpty {
            parameters.append("TYPE=" + subtype.uppercased())
        }
        parsed.writtenParameters = parameters
        parsed.value = String(line.value[line.value.index(after: comma)...])
        return parsed.keptText
    }

    /// The media type a KEY's or a SOUND's TYPE value names: a whole one
    /// (`application/pgp-keys`), or the subtype that 3.0's writers give
    /// of a key's (`PGP-KEYS`, as ``inlineData(_:)`` writes it); nil for a
    /// type of key (`PGP`, `X509`) or of sound (`WAVE`).
    static func keyMediaType(_ type: String) -> String? {
        let type = type.lowercased()
        if type.contains("/") { return type }
        return ["pgp-keys", "pkix-cert", "x-x509-ca-cert", "pkcs8", "x-pem-file"].contains(type) ? "application/" + type : nil
    }

    /// True for a TYPE value that names an image's type (`JPEG`,
    /// `image/png`, 2.1's `GIF`), lower-cased.
    static func isImageType(_ type: String) -> Bool {
        type.hasPrefix("image/") || ["jpeg", "jpg", "png", "gif", "bmp", "tiff", "heic", "heif", "webp", "wbmp", "pict",
                                     "x-evolution-unknown"].contains(type)
    }

    /// IMPP: the URI, with X-SERVICE-TYPE where the service is not the
    /// URI's scheme; a service that cannot be a scheme ("Mike's IM") writes
    /// Apple's `x-apple:` for "no scheme".
    static func impp(_ messenger: Messenger) -> String {
        let hasScheme = messenger.handle.range(of: #"^[A-Za-z][A-Za-z0-9+.-]*:"#, options: .regularExpression) != nil
        let service = messenger.service.lowercased()
        let isScheme = service.range(of: #"^[a-z][a-z0-9+.-]*$"#, options: .regularExpression) != nil
        let uri = hasScheme ? messenger.handle : (isScheme ? service : "x-apple") + ":" + messenger.handle
        let scheme = uri.prefix { $0 != ":" }
        let parameter = scheme == messenger.service ? "" : ";X-SERVICE-TYPE=\(parameterValue(messenger.service))"
        return "IMPP\(parameter)\(messenger.parameters.map { ";" + $0 } ?? ""):\(escape(uri))"
    }

    /// PHOTO with its bytes inline: 3.0's `ENCODING=b;TYPE=JPEG`, 4.0's
    /// `data:` URI.
    static func photo(_ photo: ContactPhoto, version: VCardVersion) -> String {
        let base64 = photo.data.base64EncodedString()
        switch version {
        case .v4:
            return "PHOTO:data:\(photo.mediaType);base64,\(base64)"
        case .v3:
            let subtype = photo.mediaType.lowercased().hasPrefix("image/") ? photo.mediaType.dropFirst(6).uppercased() : ""
            return "PHOTO;ENCODING=b" + (subtype.isEmpty ? "" : ";TYPE=\(parameterValue(subtype))") + ":" + base64
        }
    }

    /// A parameter value, quoted where it holds `;`, `:` or `,`.
    static func parameterValue(_ value: String) -> String {
        value.contains(where: { ";:,".contains($0) }) ? "\"" + value.replacingOccurrences(of: "\"", with: "'") + "\"" : value
    }

    /// An extra property as the target version writes it: vCard 2.1's bare
    /// parameters as TYPE values, and inline binary data (PHOTO, LOGO, KEY,
    /// SOUND) as 3.0's ENCODING=b or 4.0's data: URI.
    static func extraLine(_ line: String, version: VCardVersion) -> String {
        guard var parsed = VCardContentLine(Array(line.utf8), legacyCharset: .utf8) else { return line }
        if version == .v3, let inline = inlineData(parsed) { return inline }
        let encoding = parsed.parameter("ENCODING").first?.uppercased()
        let isBase64 = encoding == "B" || encoding == "BASE64" || parsed.has("BASE64")
        let bare = parsed.parameters.filter { $0.values.isEmpty && $0.name != "BASE64" }.map(\.name)
        guard isBase64 || !bare.isEmpty else { return line }
        var parameters = parsed.writtenParameters.filter { piece in
            let name = piece.split(separator: "=", maxSplits: 1).first.map { $0.uppercased() } ?? ""
            return !piece.contains("=") ? false : !(isBase64 && name == "ENCODING")
        }
        let mediaTypes = parsed.parameter("TYPE") + bare
        if !bare.isEmpty && !isBase64 { parameters.append("TYPE=" + bare.joined(separator: ",")) }
        if isBase64 {
            if version == .v4 {
                // An image's TYPE is its media type; a KEY's or a SOUND's
                // (PGP, WAVE) stays a TYPE, beside bytes of no named type,
                // as does a photo's HOME or WORK.
                let media: String
                if ["PHOTO", "LOGO"].contains(parsed.name) {
                    let others = mediaTypes.filter { !isImageType($0.lowercased()) }
                    parameters.removeAll { $0.uppercased().hasPrefix("TYPE=") }
                    if !others.isEmpty { parameters.append("TYPE=" + others.joined(separator: ",")) }
                    let subtype = (mediaTypes.first { isImageType($0.lowercased()) } ?? "jpeg").lowercased()
                    media = subtype.contains("/") ? subtype : "image/" + (subtype == "jpg" ? "jpeg" : subtype)
                } else if let named = mediaTypes.first(where: { keyMediaType($0) != nil }) {
                    // A media type 3.0 gave as a TYPE is the data: URI's.
                    let others = mediaTypes.filter { $0 != named }
                    parameters.removeAll { $0.uppercased().hasPrefix("TYPE=") }
                    if !others.isEmpty { parameters.append("TYPE=" + others.joined(separator: ",")) }
                    media = keyMediaType(named)!
                } else {
                    if !bare.isEmpty { parameters.append("TYPE=" + bare.joined(separator: ",")) }
                    media = "application/octet-stream"
                }
                parsed.value = "data:\(media);base64,\(parsed.value.filter { !$0.isWhitespace })"
            } else {
                parameters.insert("ENCODING=b", at: 0)
                if !bare.isEmpty { parameters.append("TYPE=" + bare.joined(separator: ",")) }
                parsed.value = parsed.value.filter { !$0.isWhitespace }
            }
        }
        parsed.writtenParameters = parameters
        return parsed.keptText
    }

    /// A structured value (N, ORG, ADR): each component one text, its
    /// commas, semicolons and backslashes escaped, so that a reader finds
    /// every component as stored (`García, Jr.` is one family name).
    static func structured(_ components: [String?]) -> String {
        components.map { escape($0 ?? "") }.joined(separator: ";")
    }

    /// RFC 6350 §3.4, RFC 2426 §5: backslash, comma, semicolon and line
    /// breaks escaped; a lone CR is a line break too, since readers end a
    /// line at CR, LF or both.
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case ",": result += "\\,"
            case ";": result += "\\;"
            case "\n", "\r\n", "\r": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }

    /// Each line break (CR LF, CR or LF) written `\n`, nothing else
    /// touched.
    static func escapingLineBreaks(_ line: String) -> String {
        line.replacingOccurrences(of: "\r\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\n")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    /// Folds a line into pieces of at most 75 octets, never inside a UTF-8
    /// sequence, each continuation starting with a space.
    static func fold(_ line: String) -> String {
        // An ASCII line (a photo's base64, megabytes long) folds by bytes,
        // without walking its characters.
        if line.utf8.allSatisfy({ $0 < 0x80 }) {
            let bytes = Array(line.utf8)
            var pieces = [bytes.prefix(75)], start = 75
            while start < bytes.count {
                pieces.append(bytes[start..<Swift.min(start + 74, bytes.count)])
                start += 74
            }
            return pieces.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\r\n ")
        }
        var pieces: [String] = [], current = "", size = 0
        for character in line {
            let length = character.utf8.count
            if size + length > (pieces.isEmpty ? 75 : 74) {
                pieces.append(current)
                current = ""
                size = 0
            }
            current.append(character)
            size += length
        }
        pieces.append(current)
        return pieces.joined(separator: "\r\n ")
    }
}
