import Foundation

/// Each list of ``CardList`` in vCard, by its key: how it is written, where
/// among the card's properties, and which properties are read into it.
/// The writer and ``VCardPropertyMapper`` iterate these; `extra` has no
/// entry, as its lines are the card's own.
struct VCardLists: Sendable {
    /// Where the list's lines go among the card's properties.
    enum Place: Sendable {
        case afterBirthday, afterAddresses, afterMessengers
    }

    /// A property read into a list: whether an item group's X-ABLabel is
    /// its label, and how a line of it is read (false: it is kept in
    /// `extra` as written).
    struct Reading: Sendable {
        let isLabelled: Bool
        let read: @Sendable (VCardContentLine, _ label: String?, inout ContactDetails) -> Bool
    }

    let place: Place
    let write: @Sendable (ContactDetails, inout VCardWriter.Card) -> Void
    let reading: [String: Reading]

    /// In ``CardList/all``'s order.
    static let all: [VCardLists] = CardList.all.compactMap { byKey[$0.key] }

    /// Every property read into a list, by name.
    static let readings: [String: Reading] = all.reduce(into: [:]) { readings, list in
        readings.merge(list.reading) { first, _ in first }
    }

    private typealias Mapper = VCardPropertyMapper

    private static let byKey: [String: VCardLists] = [
        "dates": VCardLists(place: .afterBirthday, write: { details, card in
            for date in details.dates {
                if date.type == "anniversary" && card.version == .v4 {
                    card.addDate("ANNIVERSARY", date.value, parameters: date.parameters)
                } else {
                    // An unlabelled date gets no label it did not have.
                    card.addDate("X-ABDATE", date.value, label: date.type == WellKnownLabel.other.rawValue ? nil : date.type,
                                 parameters: date.parameters)
                }
            }
        }, reading: Dictionary(uniqueKeysWithValues: ["ANNIVERSARY", "X-ABDATE"].map { name in
            (name, Reading(isLabelled: true) { line, label, details in
                guard let date = Mapper.date(line) else { return false }
                let type = line.name == "ANNIVERSARY" ? "anniversary" : label ?? VCardLabels.label(types: line.types, fallback: "other")
                details.dates.append(LabeledValue(type: type, value: date))
                return true
            })
        })),
        "urls": VCardLists(place: .afterAddresses, write: { details, card in
            for url in details.urls {
                card.addLabelled("URL", url.type, preferred: false, url.parameters, VCardWriter.escape(url.value))
            }
        }, reading: ["URL": Reading(isLabelled: true) { line, label, details in
            guard !line.text.isEmpty else { return false }
            // A URL has no preference of its own: Apple's type=pref is kept.
            let kept = [Mapper.isPreferred(line) ? "TYPE=pref" : nil, Mapper.unheld(line)].compactMap { $0 }
            details.urls.append(LabeledValue(type: label ?? VCardLabels.label(types: line.types, fallback: "other"),
                                             value: line.text, parameters: kept.isEmpty ? nil : kept.joined(separator: ";")))
            return true
        }]),
        "relations": VCardLists(place: .afterMessengers, write: { details, card in
            for relation in details.relations { writeRelation(relation, into: &card) }
        }, reading: [
            "RELATED": Reading(isLabelled: true) { line, label, details in
                guard line.parameters.allSatisfy({ ["TYPE", "VALUE"].contains($0.name) }), !line.text.isEmpty else { return false }
                details.relations.append(Relation(type: label ?? VCardLabels.label(types: line.types, fallback: "other"),
                                                  name: line.text))
                return true
            },
            "X-ABRELATEDNAMES": Reading(isLabelled: true) { line, label, details in
                guard line.parameters.isEmpty, !line.text.isEmpty else { return false }
                details.relations.append(Relation(type: label ?? "other", name: line.text))
                return true
            },
        ]),
        "socialProfiles": VCardLists(place: .afterMessengers, write: { details, card in
            for profile in details.socialProfiles {
                var line = "X-SOCIALPROFILE;TYPE=\(VCardWriter.parameterValue(profile.service))"
                if !profile.handle.isEmpty { line += ";X-USER=\(VCardWriter.parameterValue(profile.handle))" }
                card.add(line + ":" + VCardWriter.escape(profile.url))
            }
        }, reading: ["X-SOCIALPROFILE": Reading(isLabelled: false) { line, _, details in
            guard line.parameters.allSatisfy({ ["TYPE", "X-USER"].contains($0.name) }),
                  let service = line.parameter("TYPE").first, line.parameter("TYPE").count == 1 else { return false }
            details.socialProfiles.append(SocialProfile(service: service, handle: line.parameter("X-USER").first ?? "",
                                                        url: line.text))
            return true
        }]),
    ]

    private static func writeRelation(_ relation: Relation, into card: inout VCardWriter.Card) {
        let types = relation.type.split(separator: " ").map(String.init)
        // 3.0 has no RELATED, but an X-ABLabel holds one label: several
        // types go as RELATED, which 3.0 readers that know it (and this
        // one) read.
        if card.version == .v4 || types.count > 1, !types.isEmpty, types.allSatisfy(VCardWriter.relatedTypes.contains) {
            let isURI = relation.name.range(of: #"^[A-Za-z][A-Za-z0-9+.-]*:\S"#, options: .regularExpression) != nil
            card.add("RELATED;TYPE=\(types.joined(separator: ","))\(isURI ? "" : ";VALUE=text"):\(VCardWriter.escape(relation.name))")
        } else if relation.type == WellKnownLabel.other.rawValue {
            // An unlabelled name gets no label it did not have.
            card.add("X-ABRELATEDNAMES:\(VCardWriter.escape(relation.name))")
        } else {
            card.addItem("X-ABRELATEDNAMES:\(VCardWriter.escape(relation.name))", label: relation.type)
        }
    }
}

extension VCardWriter.Card {
    /// The lines of the card's lists that go at `place`.
    mutating func addLists(of details: ContactDetails, at place: VCardLists.Place) {
        guard details.hasLists else { return }
        for list in VCardLists.all where list.place == place { list.write(details, &self) }
    }
}
