// The host probe compiled as C++: the source-level swap-in header must work there too.
// cmocka 1.1.5's header has no extern "C" of its own; its include guard keeps the
// probe's own #include <cmocka.h> from reading it again.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
extern "C" {
#include <cmocka.h>
}

#include "api_probe.c"
