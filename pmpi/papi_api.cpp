// libpapi through dlopen: see papi_api.hpp.
#include "papi_api.hpp"

#include <papi.h>

#include <dlfcn.h>
#include <pthread.h>

#include <map>
#include <mutex>

namespace haec::papi {
namespace {

// The libpapi to open: the one the build found (its soname, HAEC_PAPI_SONAME: Debian 12's
// libpapi.so.7.0), else whichever the system has, development link first, then PAPI 7's and 6's
// sonames. The first that loads is used.
#ifndef HAEC_PAPI_SONAME
#define HAEC_PAPI_SONAME ""
#endif
constexpr const char* kCandidates[] = {HAEC_PAPI_SONAME, "libpapi.so", "libpapi.so.7.2", "libpapi.so.7.1",
                                       "libpapi.so.7.0", "libpapi.so.7", "libpapi.so.6.0", "libpapi.so.6"};

// The opened library and its soname, or null with `why` set.
void* open_library(std::string& name, std::string& why)
{
  for (const char* candidate : kCandidates) {
    if (*candidate == '\0')
      continue;
    if (void* lib = dlopen(candidate, RTLD_NOW | RTLD_GLOBAL)) {
      name = candidate;
      return lib;
    }
  }
  why = std::string("no libpapi can be loaded (tried ") + (*HAEC_PAPI_SONAME ? HAEC_PAPI_SONAME ", " : "") +
        "libpapi.so, libpapi.so.7.*, libpapi.so.6.*): " + dlerror();
  return nullptr;
}

template <class F> bool bind(void* lib, F& f, const char* name)
{
  f = reinterpret_cast<F>(dlsym(lib, name));
  return f != nullptr;
}

bool bind_all(void* lib, Api& a)
{
  return bind(lib, a.library_init, "PAPI_library_init") &&
         bind(lib, a.disable_component_by_name, "PAPI_disable_component_by_name") &&
         bind(lib, a.thread_init, "PAPI_thread_init") && bind(lib, a.create_eventset, "PAPI_create_eventset") &&
         bind(lib, a.add_event, "PAPI_add_event") &&
         bind(lib, a.event_name_to_code, "PAPI_event_name_to_code") && bind(lib, a.start, "PAPI_start") &&
         bind(lib, a.read, "PAPI_read") && bind(lib, a.cleanup_eventset, "PAPI_cleanup_eventset") &&
         bind(lib, a.destroy_eventset, "PAPI_destroy_eventset") && bind(lib, a.strerror, "PAPI_strerror") &&
         bind(lib, a.get_opt, "PAPI_get_opt");
}

unsigned long thread_id()
{
  return static_cast<unsigned long>(pthread_self());
}

// Opens and initialises the library; returns "" or why it could not.
std::string open(Api& a)
{
  std::string name, why;
  void* lib = open_library(name, why);
  if (lib == nullptr)
    return why;
  if (!bind_all(lib, a))
    return name + " lacks some of PAPI's functions (PAPI_library_init, PAPI_read, ...)";
  // rocm_smi initialises itself when an unknown name is looked up and prints two lines about
  // /sys/class/drm on machines without AMD GPUs (measured); we count CPU events only.
  a.disable_component_by_name("rocm_smi");
  const int v = a.library_init(PAPI_VER_CURRENT);
  if (v != PAPI_VER_CURRENT)
    return "PAPI_library_init: " + (v < 0 ? describe(a, v) : "version mismatch with papi.h");
  // SMPI's thread contexts run each rank on its own thread: PAPI then keeps per-thread counters.
  const int t = a.thread_init(thread_id);
  if (t != PAPI_OK)
    return "PAPI_thread_init: " + describe(a, t);
  return "";
}

} // namespace

const Api* api(std::string& why)
{
  static std::mutex mu;
  static Api a;
  static std::string error;
  static bool tried = false;
  std::lock_guard<std::mutex> lock(mu);
  if (!tried) {
    tried = true;
    error = open(a);
  }
  why = error;
  return error.empty() ? &a : nullptr;
}

std::string library_description()
{
  std::string name, why;
  void* lib = open_library(name, why);
  if (lib == nullptr)
    return "none: " + why;
  auto get_opt  = reinterpret_cast<int (*)(int, void*)>(dlsym(lib, "PAPI_get_opt"));
  const int v   = get_opt != nullptr ? get_opt(PAPI_LIB_VERSION, nullptr) : -1;
  std::string text = v > 0 ? std::to_string(PAPI_VERSION_MAJOR(v)) + "." + std::to_string(PAPI_VERSION_MINOR(v)) + "." +
                                 std::to_string(PAPI_VERSION_REVISION(v)) + "." + std::to_string(PAPI_VERSION_INCREMENT(v))
                           : "(version unknown)";
  return "PAPI " + text + " (" + name + ")";
}

std::string describe(const Api& papi, int code)
{
  static const std::map<int, const char*> names = {
      {PAPI_EINVAL, "PAPI_EINVAL"},   {PAPI_ENOMEM, "PAPI_ENOMEM"},   {PAPI_ESYS, "PAPI_ESYS"},
      {PAPI_ECMP, "PAPI_ECMP"},       {PAPI_ENOEVNT, "PAPI_ENOEVNT"}, {PAPI_ECNFLCT, "PAPI_ECNFLCT"},
      {PAPI_ENOTPRESET, "PAPI_ENOTPRESET"}, {PAPI_EPERM, "PAPI_EPERM"}, {PAPI_ENOSUPP, "PAPI_ENOSUPP"},
      {PAPI_ECOUNT, "PAPI_ECOUNT"},   {PAPI_ENOCMP, "PAPI_ENOCMP"}};
  const char* text = papi.strerror != nullptr ? papi.strerror(code) : nullptr;
  auto it          = names.find(code);
  return (it != names.end() ? std::string(it->second) : "PAPI error " + std::to_string(code)) + ": " +
         (text != nullptr ? text : "unknown");
}

} // namespace haec::papi
