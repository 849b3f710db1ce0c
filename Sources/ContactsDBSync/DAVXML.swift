import ContactsDB
import CLibXML2
import Foundation

/// The WebDAV, CardDAV (RFC 6352) and sync-collection (RFC 6578) XML a
/// sync sends and reads: request bodies, and a server's multistatus
/// answers read by libxml2 into a small element tree.
package enum DAVXML {
    package static let dav = "DAV:"
    package static let cardDAV = "urn:ietf:params:xml:ns:carddav"

    // MARK: - Requests

    package static func propfind(_ properties: [String]) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav"><d:prop>\(properties.map { "<\($0)/>" }.joined())</d:prop></d:propfind>
        """
    }

    package static func syncCollection(token: String?) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <d:sync-collection xmlns:d="DAV:"><d:sync-token>\(escape(token ?? ""))</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>
        """
    }

    package static func multiget(_ hrefs: [String]) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <card:addressbook-multiget xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/><card:address-data/></d:prop>\(hrefs.map { "<d:href>\(escape($0))</d:href>" }.joined())</card:addressbook-multiget>
        """
    }

    package static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    // MARK: - Answers

    /// One element: its namespace and local name, attributes, text and
    /// children.
    package final class Element {
        package let namespace: String
        package let name: String
        package let attributes: [String: String]
        package var text = ""
        package var children: [Element] = []

        init(namespace: String, name: String, attributes: [String: String]) {
            (self.namespace, self.name, self.attributes) = (namespace, name, attributes)
        }

        package func child(_ name: String, _ namespace: String = DAVXML.dav) -> Element? {
            children.first { $0.name == name && $0.namespace == namespace }
        }

        package func all(_ name: String, _ namespace: String = DAVXML.dav) -> [Element] {
            children.filter { $0.name == name && $0.namespace == namespace }
        }

        package var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// One `response` of a multistatus: an href, its status when the
    /// response has one (a removed member, a missing card), and the
    /// properties found (status 2xx) by name.
    package struct Response {
        package var href: String
        package var status: Int?
        package var properties: [String: Element] = [:]

        package func property(_ name: String) -> Element? { properties[name] }
    }

    package struct Multistatus {
        package var responses: [Response] = []
        /// The collection's new token (sync-collection).
        package var syncToken: String?
    }

    /// Reads a 207 answer; throws when it is not a multistatus.
    package static func multistatus(_ data: Data, from url: URL) throws -> Multistatus {
        guard let root = parse(data), root.name == "multistatus", root.namespace == dav else {
            throw ContactsDBError.remoteAnswerUnreadable(url: url.absoluteString, reason: "its answer is not a WebDAV multistatus")
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
    package static func statusCode(_ line: String) -> Int? {
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }

    /// The document's root element, or nil when it is no well-formed XML.
    /// libxml2 reads it without network access, entity expansion or DTD
    /// loading, and refuses what is not well-formed.
    package static func parse(_ data: Data) -> Element? {
        guard !data.isEmpty, data.count <= Int(Int32.max) else { return nil }
        // An answer is at most HTTPTransport.maximumAnswerBytes: libxml2's own
        // 10 MB limit on one text (a card with a long note) is lifted.
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
                            | XML_PARSE_NOCDATA.rawValue | XML_PARSE_HUGE.rawValue)
        cdb_xml_silence()
        let document = data.withUnsafeBytes { bytes in
            xmlReadMemory(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil, nil, options)
        }
        guard let document else { return nil }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document) else { return nil }
        return element(root)
    }

    private static func element(_ node: xmlNodePtr) -> Element {
        let element = Element(namespace: string(node.pointee.ns?.pointee.href) ?? "", name: string(node.pointee.name) ?? "",
                              attributes: attributes(node))
        // Depth first with a stack of our own: nesting as deep as libxml2
        // allows must not exhaust the thread's stack.
        var stack: [(node: xmlNodePtr?, parent: Element)] = [(node.pointee.children, element)]
        while let (current, parent) = stack.popLast() {
            guard let current else { continue }
            stack.append((current.pointee.next, parent))
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                let child = Element(namespace: string(current.pointee.ns?.pointee.href) ?? "",
                                    name: string(current.pointee.name) ?? "", attributes: attributes(current))
                parent.children.append(child)
                stack.append((current.pointee.children, child))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                parent.text += string(current.pointee.content) ?? ""
            default:
                break
            }
        }
        return element
    }

    private static func attributes(_ node: xmlNodePtr) -> [String: String] {
        var attributes: [String: String] = [:]
        var attribute = node.pointee.properties
        while let current = attribute {
            // An attribute's value is its text children's.
            var value = "", child = current.pointee.children
            while let text = child {
                value += string(text.pointee.content) ?? ""
                child = text.pointee.next
            }
            if let name = string(current.pointee.name) { attributes[name] = value }
            attribute = current.pointee.next
        }
        return attributes
    }

    private static func string(_ text: UnsafePointer<xmlChar>?) -> String? {
        text.map { String(decoding: UnsafeBufferPointer(start: $0, count: strlen(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))), as: UTF8.self) }
    }
}
