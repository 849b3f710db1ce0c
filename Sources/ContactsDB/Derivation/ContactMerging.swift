/// The draft a merge of duplicates makes (SPEC §Duplicates): the survivor
/// joined, field by field as ``ContactField`` says, with each other draft
/// in the order given.
package struct ContactMerging {
    package var draft: ContactDraft
    package var keptApart: [MergeResult.KeptApart] = []

    package init(survivor: ContactDraft, others: [ContactDraft]) {
        draft = survivor
        for other in others {
            for field in ContactField.all {
                if let value = field.join(other, &draft) {
                    keptApart.append(MergeResult.KeptApart(id: other.id ?? "", field: field.name, value: value))
                }
            }
        }
    }
}
