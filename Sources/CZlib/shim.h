#ifndef PRODUCT_CATALOG_CZLIB_SHIM_H
#define PRODUCT_CATALOG_CZLIB_SHIM_H

#include <zlib.h>

// inflateInit2 is a macro that passes the library version and the struct size, which Swift
// cannot import. 16 + MAX_WBITS asks for a gzip wrapper (and only gzip), with the largest window.
static inline int czlib_inflate_init_gzip(z_streamp stream) {
    return inflateInit2(stream, 16 + MAX_WBITS);
}

#endif
