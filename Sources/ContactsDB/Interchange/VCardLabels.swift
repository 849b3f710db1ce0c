/// How labels travel in vCards, read and written by one table: TYPE values
/// for the labels vCard registers (`cell` for mobile, `fax` with `home` for
/// home fax), Apple's `_$!<…>!$_` names for its built-in labels, and any
/// other label as an item group's X-ABLabel.
enum VCardLabels {
    /// TYPE values that only restate a property's default or its
    /// preference, never part of its label.
    private static let silentTypes: Set<String> = ["pref", "voice", "internet", "x400"]

    /// TYPE values vCard 2.1, 3.0 or 4.0 registers (or Apple writes) for
    /// TEL, EMAIL, ADR and URL: a label made of these alone is written as
    /// TYPE values.
    private static let registeredTypes: Set<String> = [
        "home", "work", "cell", "fax", "pager", "text", "video", "textphone", "msg", "bbs", "modem", "car",
        "isdn", "pcs", "main", "other", "iphone", "dom", "intl", "postal", "parcel",
    ]

    /// Labels spelled apart from their TYPE values, both ways.
    private static let spelled: [(label: String, types: [String])] = [
        ("mobile", ["cell"]), ("iPhone", ["iphone", "cell"]), ("iPhone", ["iphone"]),
        ("home fax", ["home", "fax"]), ("work fax", ["work", "fax"]),
        // Roundcube's spelling of the pairs, read only.
        ("home fax", ["homefax"]), ("work fax", ["workfax"]),
    ]

    /// Apple's built-in labels (`_$!<HomeFAX>!$_`) by the label they stand for.
    private static let apple: [(label: String, name: String)] = [
        ("mobile", "Mobile"), ("home", "Home"), ("work", "Work"), ("main", "Main"), ("other", "Other"),
        ("home fax", "HomeFAX"), ("work fax", "WorkFAX"), ("other fax", "OtherFAX"), ("pager", "Pager"),
        ("homepage", "HomePage"), ("anniversary", "Anniversary"), ("spouse", "Spouse"), ("child", "Child"),
        ("father", "Father"), ("mother", "Mother"), ("parent", "Parent"), ("brother", "Brother"),
        ("sister", "Sister"), ("friend", "Friend"), ("partner", "Partner"), ("manager", "Manager"),
        ("assistant", "Assistant"), ("school", "School"),
    ]

    /// The label of a property from its TYPE values; `fallback` when they
    /// hold none.
    static func label(types: [String], fallback: String) -> String {
        var seen: [String] = []
        for type in types where !silentTypes.contains(type) && !seen.contains(type) { seen.append(type) }
        if seen.isEmpty { return fallback }
        if let entry = spelled.first(where: { Set($0.types) == Set(seen) }) { return entry.label }
        if seen == ["mobile"] { return "mobile" }
        return seen.joined(separator: " ")
    }

    /// The label an X-ABLabel value stands for: Apple's built-in names
    /// unwrapped, any other text as written.
    static func label(abLabel text: String) -> String {
        guard text.hasPrefix("_$!<"), text.hasSuffix(">!$_") else { return text }
        let name = String(text.dropFirst(4).dropLast(4))
        return apple.first { $0.name == name }?.label ?? name
    }

    /// The TYPE values that write `label`; nil when it needs an X-ABLabel.
    static func types(for label: String) -> [String]? {
        if let entry = spelled.first(where: { $0.label == label }) { return entry.types }
        let words = label.split(separator: " ").map(String.init)
        // vCard lets a producer name its own TYPE values `x-…` (Android's
        // `X-Other`); they go back as TYPE values too.
        guard !words.isEmpty, words.allSatisfy({ registeredTypes.contains($0) || $0.hasPrefix("x-") }) else { return nil }
        return words
    }

    /// The X-ABLabel value for `label`: Apple's spelling of its built-in
    /// ones, any other as given.
    static func abLabel(for label: String) -> String {
        apple.first { $0.label == label }.map { "_$!<\($0.name)>!$_" } ?? label
    }
}
