/* volk (Debian's libvulkan-volk-dev ships it as source): loads libvulkan.so.1 for the own-context
 * path. texdec uses only volkInitialize + vkGetInstanceProcAddr from it and keeps its own
 * per-context function tables, so volk's global pointers are never relied on for dispatch. */
#include <volk.c>
