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

    /// An addressbook-multiget of `hrefs`, in `version` when given: a
    /// server that converts cards answers in its own default otherwise,
    /// which may hold less than it keeps (Cyrus's 3.0 drops a `data:` photo).
    package static func multiget(_ hrefs: [String], version: VCardVersion? = nil) -> String {
        let data = version.map { #"<card:address-data content-type="text/vcard" version="\#($0.rawValue)"/>"# } ?? "<card:address-data/>"
        return """
        <?xml version="1.0" encoding="utf-8"?>
        <card:addressbook-multiget xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/>\(data)</d:prop>\(hrefs.map { "<d:href>\(escape($0))</d:href>" }.joined())</card:addressbook-multiget>
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
    ///
    /// libxml2 reads it as a stream (its reader hands back each node once
    /// passed), without network access, entity expansion or DTD loading,
    /// and only what a sync reads is kept: the responses' hrefs and
    /// statuses, their properties found, each property's children one
    /// level down, the sync-token. Whatever else an answer holds costs
    /// time, not memory, and the elements kept are bounded by the answer's
    /// size (``maximumKeptElements(forAnswerOf:)``), so an answer of
    /// millions of tiny elements is refused, not held.
    package static func multistatus(_ data: Data, from url: URL) throws -> Multistatus {
        func unreadable(_ reason: String) -> ContactsDBError {
            .remoteAnswerUnreadable(url: url.absoluteString, reason: reason)
        }
        guard !data.isEmpty, data.count <= Int(Int32.max) else { throw unreadable("its answer is not a WebDAV multistatus") }
        // An answer is at most HTTPTransport.maximumAnswerBytes: libxml2's own
        // 10 MB limit on one text (a card with a long note) is lifted.
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
                            | XML_PARSE_HUGE.rawValue)
        cdb_xml_silence()
        return try data.withUnsafeBytes { bytes in
            guard let reader = xmlReaderForMemory(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count),
                                                  nil, nil, options)
            else { throw unreadable("its answer could not be read (out of memory)") }
            defer { xmlFreeTextReader(reader) }
            var answer = AnswerReader(reader: reader, keptLimit: maximumKeptElements(forAnswerOf: data.count))
            switch try answer.read() {
            case .read(let result): return result
            case .notMultistatus: throw unreadable("its answer is not a WebDAV multistatus")
            case .tooManyElements:
                throw unreadable("its answer holds more elements than a WebDAV multistatus of \(data.count) bytes would")
            }
        }
    }

    /// The most responses, properties and property children an answer of
    /// `bytes` bytes may make the reader keep: one per 32 bytes (a
    /// listing's response of an href, an ETag and a resource type, three,
    /// takes 120 bytes or more), and a thousand whatever its size.
    package static func maximumKeptElements(forAnswerOf bytes: Int) -> Int { bytes / 32 + 1_000 }

    /// `HTTP/1.1 404 Not Found` → 404.
    package static func statusCode(_ line: String) -> Int? {
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }

    // MARK: - Non public

    /// Walks libxml2's reader over one answer, keeping what ``multistatus(_:from:)``
    /// says. Every string libxml2 hands back may be null (it is when it runs
    /// out of memory), and is read as absent then.
    private struct AnswerReader {
        enum Outcome { case read(Multistatus), notMultistatus, tooManyElements }

        /// What an open element is to the answer.
        private enum Frame {
            case multistatus, syncToken, response, href, responseStatus, propstat, propstatStatus, prop
            case property(Element), propertyChild(Element)
            /// An element nothing reads, or below what is kept.
            case ignored
        }

        let reader: xmlTextReaderPtr
        let keptLimit: Int
        private var kept = 0
        private var stack: [Frame] = []
        private var result = Multistatus()
        private var response = Response(href: "")
        private var hasHref = false
        private var responseStatus = "", propstatStatus = "", syncToken = ""
        private var found: [String: Element] = [:]

        init(reader: xmlTextReaderPtr, keptLimit: Int) {
            (self.reader, self.keptLimit) = (reader, keptLimit)
        }

        mutating func read() throws -> Outcome {
            // Read by the texts' autoclosures while self is being changed.
            let reader = reader
            var status: Int32
            repeat {
                status = xmlTextReaderRead(reader)
                guard status == 1 else { break }
                switch xmlTextReaderNodeType(reader) {
                case Int32(XML_READER_TYPE_ELEMENT.rawValue):
                    let isEmpty = xmlTextReaderIsEmptyElement(reader) == 1
                    guard let frame = open() else { return .notMultistatus }
                    switch frame {
                    case .response, .property, .propertyChild:
                        kept += 1
                        guard kept <= keptLimit else { return .tooManyElements }
                    default:
                        break
                    }
                    stack.append(frame)
                    if isEmpty { close() }
                case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
                    close()
                case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_WHITESPACE.rawValue),
                     Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue):
                    appendText(DAVXML.string(xmlTextReaderConstValue(reader)) ?? "")
                case Int32(XML_READER_TYPE_CDATA.rawValue):
                    // The reader leaves a CDATA section's line breaks as
                    // written; XML reads every one as LF (XML 1.0 §2.11),
                    // and a CDATA section holds no character reference.
                    appendText(DAVXML.string(xmlTextReaderConstValue(reader), breakingLinesAsXML: true) ?? "")
                default:
                    break
                }
            } while true
            // -1: not well-formed, or libxml2 gave up (out of memory).
            guard status == 0, sawRoot else { return .notMultistatus }
            return .read(result)
        }

        private var sawRoot = false

        /// The frame of the element the reader is on; nil for a root that
        /// is not a multistatus.
        private mutating func open() -> Frame? {
            let name = DAVXML.string(xmlTextReaderConstLocalName(reader)) ?? ""
            let namespace = DAVXML.string(xmlTextReaderConstNamespaceUri(reader)) ?? ""
            let isDAV = namespace == DAVXML.dav
            guard let parent = stack.last else {
                guard !sawRoot, isDAV, name == "multistatus" else { return nil }
                sawRoot = true
                return .multistatus
            }
            switch parent {
            case .multistatus where isDAV && name == "response":
                (response, hasHref, responseStatus) = (Response(href: ""), false, "")
                return .response
            case .multistatus where isDAV && name == "sync-token":
                syncToken = ""
                return .syncToken
            case .response where isDAV && name == "href" && !hasHref:
                return .href
            case .response where isDAV && name == "status":
                responseStatus = ""
                return .responseStatus
            case .response where isDAV && name == "propstat":
                (found, propstatStatus) = ([:], "")
                return .propstat
            case .propstat where isDAV && name == "status":
                propstatStatus = ""
                return .propstatStatus
            case .propstat where isDAV && name == "prop":
                return .prop
            case .prop:
                let property = Element(namespace: namespace, name: name, attributes: attributes())
                found[name] = property
                return .property(property)
            case .property(let property):
                let child = Element(namespace: namespace, name: name, attributes: attributes())
                property.children.append(child)
                return .propertyChild(child)
            default:
                return .ignored
            }
        }

        private mutating func close() {
            guard let frame = stack.popLast() else { return }
            switch frame {
            case .syncToken:
                result.syncToken = syncToken.trimmingCharacters(in: .whitespacesAndNewlines)
            case .href:
                response.href = response.href.trimmingCharacters(in: .whitespacesAndNewlines)
                hasHref = true
            case .propstat:
                let status = statusCode(propstatStatus.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 200
                if (200..<300).contains(status) { response.properties.merge(found) { _, new in new } }
                found = [:]
            case .response:
                response.status = statusCode(responseStatus.trimmingCharacters(in: .whitespacesAndNewlines))
                if hasHref { result.responses.append(response) }
            default:
                break
            }
        }

        private mutating func appendText(_ text: @autoclosure () -> String) {
            guard let frame = stack.last else { return }
            switch frame {
            case .syncToken: syncToken += text()
            case .href: response.href += text()
            case .responseStatus: responseStatus += text()
            case .propstatStatus: propstatStatus += text()
            case .property(let element), .propertyChild(let element): element.text += text()
            default: break
            }
        }

        /// The element's attributes by local name, namespace declarations
        /// left out.
        private func attributes() -> [String: String] {
            var attributes: [String: String] = [:]
            guard xmlTextReaderHasAttributes(reader) == 1 else { return attributes }
            while xmlTextReaderMoveToNextAttribute(reader) == 1 {
                guard DAVXML.string(xmlTextReaderConstNamespaceUri(reader)) != "http://www.w3.org/2000/xmlns/",
                      let name = DAVXML.string(xmlTextReaderConstLocalName(reader)) else { continue }
                attributes[name] = DAVXML.string(xmlTextReaderConstValue(reader)) ?? ""
            }
            xmlTextReaderMoveToElement(reader)
            return attributes
        }
    }

    /// - parameter breakingLinesAsXML: CR LF and a lone CR become LF, on
    ///   the bytes: a CDATA section may hold a card of megabytes.
    private static func string(_ text: UnsafePointer<xmlChar>?, breakingLinesAsXML: Bool = false) -> String? {
        guard let text else { return nil }
        let bytes = UnsafeBufferPointer(start: text, count: strlen(UnsafeRawPointer(text).assumingMemoryBound(to: CChar.self)))
        guard breakingLinesAsXML, bytes.contains(UInt8(ascii: "\r")) else { return String(decoding: bytes, as: UTF8.self) }
        var lines: [UInt8] = []
        lines.reserveCapacity(bytes.count)
        let (cr, lf) = (UInt8(ascii: "\r"), UInt8(ascii: "\n"))
        for (index, byte) in bytes.enumerated() {
            if byte != cr {
                lines.append(byte)
            } else if index + 1 == bytes.count || bytes[index + 1] != lf {
                lines.append(lf)
            }
        }
        return String(decoding: lines, as: UTF8.self)
    }
}
