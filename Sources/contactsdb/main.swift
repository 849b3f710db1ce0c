import ContactsDBCLI

// Links no network stack: `remote add` and `sync` are handed over to
// `contactsdb-sync`, installed beside this executable.
runContactsDB(remoteAccess: nil)
