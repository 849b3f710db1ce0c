/// JSON paths (`contacts[3].phones[0].value`) for error messages.
enum JSONPath {
    /// `contacts[3]` + `phones` → `contacts[3].phones`; "" + `age` → `age`.
    static func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }
}
