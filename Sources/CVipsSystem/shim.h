// Only here so that pkg-config's flags for libvips (GLib's include paths
// among them) reach the CVips target, which includes this header's target.
#include <vips/vips.h>
