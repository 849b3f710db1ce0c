// libxml2 (Debian's libxml2-dev), read directly for CardDAV answers:
// Foundation's XMLParser wraps the same library but traps on inputs its
// wrapper does not expect (a name that is not UTF-8, a processing
// instruction without data).
//
// Debian's libxml2 is built with ICU, whose headers its encoding header
// would pull in and clash with Foundation's copy of ICU; nothing here uses
// libxml2's encoding handlers, whose layout alone depends on it.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlreader.h>

#include <libxml/xmlerror.h>

// libxml2 writes some errors to stderr whatever a parse's options say;
// a sync reports what it cannot read in its own words.
static void cdb_xml_ignore(void *context, const char *message, ...) {}
static inline void cdb_xml_silence(void) {
    xmlSetGenericErrorFunc(NULL, cdb_xml_ignore);
    xmlSetStructuredErrorFunc(NULL, NULL);
}
