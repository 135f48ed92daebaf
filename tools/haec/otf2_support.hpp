// What the OTF2 export and import share: libotf2's callbacks and error handling (libotf2).
#pragma once
#include <otf2/otf2.h>

#include <cstdarg>
#include <string>

namespace haec::cli::otf2 {

// libotf2 prints every internal error on stderr (several lines); ours is one line, from the code.
inline OTF2_ErrorCode quiet(void*, const char*, uint64_t, const char*, OTF2_ErrorCode code, const char*, va_list)
{
  return code;
}

// Throws std::runtime_error "OTF2 <what>: <libotf2's description>" unless `e` is a success.
void ok(OTF2_ErrorCode e, const std::string& what);

} // namespace haec::cli::otf2
