// Only here so that pkg-config's flags for GLib (its include paths, which
// libvips' headers need) reach the CVips target, which includes this
// header's target. libvips itself is opened at run time (CVips.c).
#include <vips/vips.h>
