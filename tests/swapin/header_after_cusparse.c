/* Must NOT compile: the real <cusparse.h> first, then the swap-in header, which
 * refuses to redefine the names the real header already declared (the test
 * swapin_header_refuses_real_cusparse expects its #error). */
#include <cusparse.h>

#include "tcsparse_cusparse.h"

int main(void) { return 0; }
