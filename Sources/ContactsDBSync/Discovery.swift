import ContactsDB
import Foundation

/// Finds the address book behind a URL (RFC 6764, RFC 6352 §7): the URL
/// itself when it is one; else its principal's (current-user-principal)
/// address book home (addressbook-home-set), tried at the URL and then at
/// the server's `/.well-known/carddav`; and in the home, the one address
/// book, or the one named.
struct Discovery {
    let client: DAVClient

    struct AddressBook {
        var url: URL
        var vCardVersion: VCardVersion
    }

    func addressBook(from url: URL, named name: String?) throws -> AddressBook {
        if let found = try addressBook(at: url, named: name) { return found }
        var wellKnown = URLComponents(url: url, resolvingAgainstBaseURL: true)!
        wellKnown.path = "/.well-known/carddav"
        wellKnown.query = nil
        if let wellKnownURL = wellKnown.url, wellKnownURL != url, let found = try addressBook(at: wellKnownURL, named: name) {
            return found
        }
        throw ContactsDBError.remoteUnavailable(
            url: url.absoluteString, reason: "no address book was found there, nor from its principal or /.well-known/carddav")
    }

    // MARK: - Non public

    private static let properties = [
        "d:resourcetype", "d:displayname", "d:current-user-principal", "card:addressbook-home-set",
        "card:supported-address-data",
    ]

    private func addressBook(at url: URL, named name: String?) throws -> AddressBook? {
        guard let (found, here) = try properties(of: url) else { return nil }
        if Self.isAddressBook(here) { return AddressBook(url: found, vCardVersion: Self.version(here)) }
        var home = here.property("addressbook-home-set")?.child("href")?.trimmedText
        if home == nil, let principal = here.property("current-user-principal")?.child("href")?.trimmedText,
           let principalURL = URL(string: principal, relativeTo: found)?.absoluteURL,
           let (_, principalProperties) = try properties(of: principalURL) {
            home = principalProperties.property("addressbook-home-set")?.child("href")?.trimmedText
        }
        guard let home, let homeURL = URL(string: home, relativeTo: found)?.absoluteURL else { return nil }
        return try choose(in: homeURL, named: name)
    }

    /// The address books in a home: the only one, else the one named.
    private func choose(in home: URL, named name: String?) throws -> AddressBook? {
        let answer = try client.send("PROPFIND", home, headers: [("Depth", "1")], body: DAVXML.propfind(Self.properties))
        guard answer.status == 207 else { return nil }
        let books = try DAVXML.multistatus(answer.body, from: answer.url).responses
            .filter(Self.isAddressBook)
            .compactMap { response -> (name: String, book: AddressBook)? in
                guard let url = URL(string: response.href, relativeTo: answer.url)?.absoluteURL else { return nil }
                let name = response.property("displayname")?.trimmedText ?? ""
                return (name.isEmpty ? url.lastPathComponent : name, AddressBook(url: url, vCardVersion: Self.version(response)))
            }
        if let name {
            if let match = books.first(where: { $0.name == name || $0.book.url.lastPathComponent == name }) { return match.book }
            throw ContactsDBError.invalidRemote(.noAddressBookNamed(name, available: books.map(\.name)))
        }
        guard books.count <= 1 else {
            throw ContactsDBError.invalidRemote(.severalAddressBooks(books.map(\.name)))
        }
        return books.first?.book
    }

    /// A PROPFIND at depth 0: the URL answered from (after redirects)
    /// and its properties; nil when it is no WebDAV resource.
    private func properties(of url: URL) throws -> (URL, DAVXML.Response)? {
        let answer = try client.send("PROPFIND", url, headers: [("Depth", "0")], body: DAVXML.propfind(Self.properties))
        guard answer.status == 207, let response = try DAVXML.multistatus(answer.body, from: answer.url).responses.first
        else { return nil }
        return (answer.url, response)
    }

    private static func isAddressBook(_ response: DAVXML.Response) -> Bool {
        response.property("resourcetype")?.child("addressbook", DAVXML.cardDAV) != nil
    }

    /// 4.0 where the address book says it takes it, else 3.0, which every
    /// CardDAV server must take (RFC 6352 §6.3.2.1).
    private static func version(_ response: DAVXML.Response) -> VCardVersion {
        let types = response.property("supported-address-data")?.all("address-data-type", DAVXML.cardDAV) ?? []
        return types.contains { $0.attributes["version"] == "4.0" } ? .v4 : .v3
    }

}
