#include "call_site.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>

namespace haec {

std::string object_name(const std::string& path, long pid)
{
  std::string base = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  const std::string tail = "_" + std::to_string(pid) + "_";
  const size_t at        = base.rfind(tail);
  if (at == std::string::npos || base.size() < 3 || base.compare(base.size() - 3, 3, ".so") != 0)
    return base;
  const std::string rank = base.substr(at + tail.size(), base.size() - 3 - at - tail.size());
  if (rank.empty())
    return base;
  for (char c : rank)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return base;
  return base.substr(0, at);
}

std::string call_site_text(const std::string& function, const std::string& object, uint64_t offset)
{
  char hex[32];
  std::snprintf(hex, sizeof hex, "+0x%llx", static_cast<unsigned long long>(offset));
  return function + "@" + object + hex;
}

std::string call_site_of(const char* function, const void* caller)
{
  Dl_info info{};
  std::string object = "?";
  uint64_t offset    = reinterpret_cast<uintptr_t>(caller);
  if (dladdr(caller, &info) != 0 && info.dli_fname != nullptr) {
    object = object_name(info.dli_fname, static_cast<long>(getpid()));
    offset = reinterpret_cast<uintptr_t>(caller) - reinterpret_cast<uintptr_t>(info.dli_fbase);
  }
  return call_site_text(function, object, offset);
}

} // namespace haec
