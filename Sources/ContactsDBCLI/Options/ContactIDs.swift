import ArgumentParser

/// One or more contact ids, for the commands that act on contacts.
struct ContactIDs: ParsableArguments {
    @Argument(help: "The contacts' ids.") var ids: [String] = []

    func validate() throws {
        if ids.isEmpty { throw ValidationError("Please give the id of at least one contact.") }
    }
}
