import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The WebDAV, CardDAV (RFC 6352) and sync-collection (RFC 6578) XML a
/// sync sends and reads: request bodies, and a server's multistatus
/// answers read by Foundation's XMLParser into a small element tree.
enum DAVXML {
    static let dav = "DAV:"
    static let cardDAV = "urn:ietf:params:xml:ns:carddav"

    // MARK: - Requests

    static func propfind(_ properties: [String]) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav"><d:prop>\(properties.map { "<\($0)/>" }.joined())</d:prop></d:propfind>
        """
    }

    static func syncCollection(token: String?) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <d:sync-collection xmlns:d="DAV:"><d:sync-token>\(escape(token ?? ""))</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>
        """
    }

    static func multiget(_ hrefs: [String]) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <card:addressbook-multiget xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/><card:address-data/></d:prop>\(hrefs.map { "<d:href>\(escape($0))</d:href>" }.joined())</card:addressbook-multiget>
        """
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    // MARK: - Answers

    /// One element: its namespace and local name, attributes, text and
    /// children.
    final class Element {
        let namespace: String
        let name: String
        let attributes: [String: String]
        var text = ""
        var children: [Element] = []

        init(namespace: String, name: String, attributes: [String: String]) {
            (self.namespace, self.name, self.attributes) = (namespace, name, attributes)
        }

        func child(_ name: String, _ namespace: String = DAVXML.dav) -> Element? {
            children.first { $0.name == name && $0.namespace == namespace }
        }

        func all(_ name: String, _ namespace: String = DAVXML.dav) -> [Element] {
            children.filter { $0.name == name && $0.namespace == namespace }
        }

        var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// One `response` of a multistatus: an href, its status when the
    /// response has one (a removed member, a missing card), and the
    /// properties found (status 2xx) by name.
    struct Response {
        var href: String
        var status: Int?
        var properties: [String: Element] = [:]

        func property(_ name: String) -> Element? { properties[name] }
    }

    struct Multistatus {
        var responses: [Response] = []
        /// The collection's new token (sync-collection).
        var syncToken: String?
    }

    /// Reads a 207 answer; throws when it is not a multistatus.
    static func multistatus(_ data: Data, from url: URL) throws -> Multistatus {
        guard let root = parse(data), root.name == "multistatus", root.namespace == dav else {
            throw ContactsDBError.remoteUnavailable(url: url.absoluteString, reason: "its answer is not a WebDAV multistatus")
        }
        var result = Multistatus(syncToken: root.child("sync-token")?.trimmedText)
        for element in root.all("response") {
            guard let href = element.child("href")?.trimmedText else { continue }
            var response = Response(href: href, status: element.child("status").flatMap { statusCode($0.trimmedText) })
            for propstat in element.all("propstat") {
                let status = propstat.child("status").flatMap { statusCode($0.trimmedText) } ?? 200
                guard (200..<300).contains(status), let prop = propstat.child("prop") else { continue }
                for property in prop.children { response.properties[property.name] = property }
            }
            result.responses.append(response)
        }
        return result
    }

    /// `HTTP/1.1 404 Not Found` → 404.
    static func statusCode(_ line: String) -> Int? {
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }

    static func parse(_ data: Data) -> Element? {
        // Foundation's parser traps on a name that is not UTF-8 (libxml2
        // hands such bytes on as they are); servers speak UTF-8.
        guard String(validating: data, as: UTF8.self) != nil else { return nil }
        let builder = TreeBuilder()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        guard parser.parse() else { return nil }
        return builder.root
    }

    private final class TreeBuilder: NSObject, XMLParserDelegate {
        var root: Element?
        private var stack: [Element] = []

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            let element = Element(namespace: namespaceURI ?? "", name: name, attributes: attributes)
            if let parent = stack.last { parent.children.append(element) } else { root = element }
            stack.append(element)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            _ = stack.popLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }

        func parser(_ parser: XMLParser, foundCDATA data: Data) {
            stack.last?.text += String(decoding: data, as: UTF8.self)
        }
    }
}
