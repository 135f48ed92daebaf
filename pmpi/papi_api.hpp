// libpapi, opened with dlopen on first use: applications linked with libhaec_pmpi (and `haec`) do
// not depend on PAPI unless counters are asked for (--counters / HAEC_COUNTERS), and a run
// without counters never initialises it. papi.h gives the types and error codes only.
#pragma once
#include <string>

namespace haec::papi {

struct Api {
  int (*library_init)(int)                     = nullptr;
  int (*disable_component_by_name)(const char*) = nullptr;
  int (*thread_init)(unsigned long (*)(void))  = nullptr;
  int (*create_eventset)(int*)                 = nullptr;
  int (*add_event)(int, int)                   = nullptr;
  int (*event_name_to_code)(const char*, int*) = nullptr;
  int (*start)(int)                            = nullptr;
  int (*read)(int, long long*)                 = nullptr;
  int (*cleanup_eventset)(int)                 = nullptr;
  int (*destroy_eventset)(int*)                = nullptr;
  char* (*strerror)(int)                       = nullptr;
  int (*get_opt)(int, void*)                   = nullptr; // PAPI_get_opt: the library's version
};

// The initialised library (once per process), or null with `why` set: libpapi missing, or
// PAPI_library_init failed (PAPI's own description).
const Api* api(std::string& why);

// PAPI's description of an error code ("Event does not exist"), with the code's name.
std::string describe(const Api& papi, int code);

// The PAPI this process would use, without initialising it: "PAPI 7.0.0.0 (libpapi.so.7.0)", or
// why there is none ("none: ..."). For haec --version.
std::string library_description();

} // namespace haec::papi
