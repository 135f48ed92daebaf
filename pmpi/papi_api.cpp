// libpapi through dlopen: see papi_api.hpp.
#include "papi_api.hpp"

#include <papi.h>

#include <dlfcn.h>
#include <pthread.h>

#include <map>
#include <mutex>

namespace haec::papi {
namespace {

constexpr const char* kLibrary = "libpapi.so.7.0"; // Debian 12's libpapi7.0 (PAPI 7.0.0)

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
         bind(lib, a.destroy_eventset, "PAPI_destroy_eventset") && bind(lib, a.strerror, "PAPI_strerror");
}

unsigned long thread_id()
{
  return static_cast<unsigned long>(pthread_self());
}

// Opens and initialises the library; returns "" or why it could not.
std::string open(Api& a)
{
  void* lib = dlopen(kLibrary, RTLD_NOW | RTLD_GLOBAL);
  if (lib == nullptr)
    return std::string(kLibrary) + " cannot be loaded: " + dlerror();
  if (!bind_all(lib, a))
    return std::string(kLibrary) + " lacks PAPI 7's functions";
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
