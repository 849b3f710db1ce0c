import Foundation

/// The vCard versions `export` writes.
public enum VCardVersion: String, CaseIterable, Sendable {
    case v3 = "3.0"
    case v4 = "4.0"
}

extension Contact {
    /// The contact as one vCard: N, FN, ORG, TEL, EMAIL, ADR, IMPP, UID for
    /// the id and CATEGORIES for the groups; custom labels as Apple's
    /// `itemN.X-ABLabel`, and age and favorite as X-CONTACTSDB-AGE and
    /// X-CONTACTSDB-FAVORITE, so that every field the model holds comes back
    /// on import. Lines end in CRLF and fold at 75 octets.
    public func vCard(version: VCardVersion = .v4) -> String {
        var lines = ["BEGIN:VCARD", "VERSION:\(version.rawValue)", "UID:\(VCardWriter.escape(id))"]
        lines.append("FN:\(VCardWriter.escape(displayName))")
        lines.append("N:" + [lastName ?? "", firstName ?? "", "", "", ""].map(VCardWriter.escape).joined(separator: ";"))
        if let company { lines.append("ORG:\(VCardWriter.escape(company))") }
        var items = 0
        func labelled(_ property: String, _ label: String, _ value: String, phone: Bool) {
            if let type = VCardWriter.type(for: label, phone: phone, version: version) {
                lines.append("\(property);TYPE=\(type):\(value)")
            } else {
                items += 1
                lines.append("item\(items).\(property):\(value)")
                lines.append("item\(items).X-ABLabel:\(VCardWriter.escape(label))")
            }
        }
        for phone in phones { labelled("TEL", phone.type, VCardWriter.escape(phone.value), phone: true) }
        for email in emails { labelled("EMAIL", email.type, VCardWriter.escape(email.value), phone: false) }
        for address in addresses {
            let parts = ["", address.street2, address.street1, address.city, address.state, address.zipcode, address.country]
            labelled("ADR", address.type, parts.map(VCardWriter.escape).joined(separator: ";"), phone: false)
        }
        for messenger in messengers { lines.append("IMPP:\(messenger.service):\(VCardWriter.escape(messenger.handle))") }
        if !groups.isEmpty { lines.append("CATEGORIES:" + groups.map(VCardWriter.escape).joined(separator: ",")) }
        if let age { lines.append("X-CONTACTSDB-AGE:\(age)") }
        if isFavorite { lines.append("X-CONTACTSDB-FAVORITE:TRUE") }
        lines.append("END:VCARD")
        return lines.map(VCardWriter.fold).joined(separator: "\r\n") + "\r\n"
    }
}

enum VCardWriter {
    /// RFC 6350 §3.4: backslash, comma, semicolon and newline escaped.
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case ",": result += "\\,"
            case ";": result += "\\;"
            case "\n", "\r\n": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }

    /// A TYPE for the well-known labels; nil for those written as X-ABLabel.
    static func type(for label: String, phone: Bool, version: VCardVersion) -> String? {
        let type: String
        switch label {
        case "mobile" where phone: type = "cell"
        case "home", "work": type = label
        default: return nil
        }
        return version == .v3 ? type.uppercased() : type
    }

    /// Folds a line into pieces of at most 75 octets, never inside a UTF-8
    /// sequence, each continuation starting with a space.
    static func fold(_ line: String) -> String {
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
