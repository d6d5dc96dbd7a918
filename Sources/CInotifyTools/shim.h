// libinotifytools' header uses struct inotify_event without defining it: the kernel header must come first.
#include <sys/inotify.h>
#include <inotifytools/inotifytools.h>
