// Names of MPI call sites, as the suite reports them (regions.csv, events.csv) and a recorded trace
// carries them (libs/trace/call_annotation.hpp). Each SMPI rank runs its own copy of the binary
// (dlopen privatization), so a call site is (object, offset inside it), never a raw address: every
// rank then names a site alike.
//
//   call site  "MPI_Send@lu_like+0x1a2b"       (function, object base name, offset of the return address)
#pragma once
#include <cstdint>
#include <string>

namespace haec {

// The base name of the object a call site lies in, with SMPI's per-rank copy suffix removed:
// "/tmp/lu_like_4242_7.so" -> "lu_like" when `pid` is 4242 (smpi_global.cpp names the copies
// <base>_<pid>_<rank>.so); any other path -> its base name.
std::string object_name(const std::string& path, long pid);

std::string call_site_text(const std::string& function, const std::string& object, uint64_t offset);

// The site of a call of `function` returning to `caller` in this process (dladdr: the object
// holding it, its offset there; "?" and the raw address when no object holds it).
std::string call_site_of(const char* function, const void* caller);

} // namespace haec
