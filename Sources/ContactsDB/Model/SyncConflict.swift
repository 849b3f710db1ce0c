import Foundation

/// A version that lost when both sides changed a contact: the properties
/// both changed (the other side's values were kept), or an edit that beat
/// a deletion.
public struct SyncConflict: Hashable, Sendable {
    /// The conflict's number, by which it is shown and resolved; 0 until
    /// recorded.
    public var id: Int
    /// The id of the contact both sides changed.
    public var contactId: String
    /// When the sync found the conflict.
    public var detectedAt: Date
    /// The side whose version was kept.
    public var kept: SyncPreference
    /// The properties both sides changed (JSON names); empty when an edit
    /// beat a deletion.
    public var properties: [String]
    /// The losing side's whole contact; nil when the losing side deleted it.
    public var losing: ContactDraft?

    /// A conflict as a sync records it or a reader reads it back.
    public init(id: Int = 0, contactId: String, detectedAt: Date, kept: SyncPreference, properties: [String],
                losing: ContactDraft?) {
        self.id = id
        self.contactId = contactId
        self.detectedAt = detectedAt
        self.kept = kept
        self.properties = properties
        self.losing = losing
    }
}
