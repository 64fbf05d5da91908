// zlib's crc32, for the PNG chunks gstcam adds (each chunk carries the CRC-32 of its type and data). Nothing
// is wrapped: the header alone is what Swift imports.
#include <zlib.h>
