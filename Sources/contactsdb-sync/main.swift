import ContactsDB
import ContactsDBCLI
import ContactsDBSync

/// `contactsdb` with the network: it runs the commands `contactsdb` hands
/// over, and every other command as `contactsdb` would.
struct Network: RemoteAccess {
    func addRemote(_ remote: Remote, addressBook: String?, timeout: Double, to store: ContactStore) throws -> Remote {
        try store.addRemote(remote, addressBook: addressBook, timeout: timeout)
    }

    func sync(_ store: ContactStore, remote: String, prefer: SyncPreference, dryRun: Bool, timeout: Double,
              progress: @escaping (Int, Int) -> Void) throws -> SyncReport {
        try store.sync(remote: remote, prefer: prefer, dryRun: dryRun, timeout: timeout, progress: progress)
    }
}

runContactsDB(remoteAccess: Network())
