import ArgumentParser
import ContactsDB
import ContactsDBSynthetic

/// `--photos PERCENT [--photo-bytes N]`: synthetic contacts with photos,
/// for the commands that make them (`generate`, `bench`).
struct SyntheticPhotoOptions: ParsableArguments {
    @Option(help: "The share of contacts with a photo, in percent.")
    var photos = 0
    @Option(help: ArgumentHelp(
        "Each photo's size: a 640×480 JPEG padded to this many bytes (0: as encoded, about 10 KB).",
        valueName: "bytes"))
    var photoBytes = 0

    func validate() throws {
        if !(0...100).contains(photos) { throw ValidationError("Please give --photos a percentage from 0 to 100.") }
        if !(0...PhotoImage.maximumBytes).contains(photoBytes) {
            throw ValidationError("Please give --photo-bytes from 0 to \(PhotoImage.maximumBytes).")
        }
    }

    var value: SyntheticContacts.Photos? {
        photos > 0 ? SyntheticContacts.Photos(percent: photos, bytes: photoBytes) : nil
    }
}
