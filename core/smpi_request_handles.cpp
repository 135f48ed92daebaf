// SMPI 3.32 gives every MPI request a Fortran handle when it is built (smpi_request.cpp: the
// constructor calls F2C::add_f, which inserts the request into one global std::unordered_map and
// reads the caller's source location), and erases it when the request is freed. Only Fortran
// (MPI_Request_c2f, which calls F2C::c2f) ever uses that handle. At 4096 ranks the insertion and the
// erasure were 3.3 % of a replay's CPU samples (perf by hand; README, section Performance).
//
// Here a request gets its handle when it is first asked for, as SMPI does for every other kind of
// object: F2C::add_f, called from a request's constructor, does nothing, and F2C::c2f (a request
// without a handle) lets the real add_f through. libsimgrid calls both through its PLT, so these
// preloaded definitions take their place. Handles are opaque numbers: Fortran sees the same
// requests, only numbered in another order. SMPI's leak report (smpi/list-leaks,
// smpi/display-allocs) lists the requests still registered, so with it every request is
// registered at construction again; also with --cfg=haec/request-handles:simgrid and when actors
// run in parallel threads (contexts/nthreads > 1).
#include "simgrid_symbol.hpp"

#include <xbt/config.hpp>

#include <cstring>
#include <string>
#include <typeinfo>

namespace {

#define HAEC_ADD_F "_ZN7simgrid4smpi3F2C5add_fEv"
#define HAEC_C2F "_ZN7simgrid4smpi3F2C3c2fEv"
constexpr const char* kRequestType = "N7simgrid4smpi7RequestE"; // typeid(simgrid::smpi::Request).name()

using Member = int (*)(void*);

// Requests are registered at construction as SMPI does, when something needs them all registered.
bool register_every_request()
{
  static const bool every = simgrid::config::get_value<std::string>("haec/request-handles") == "simgrid" ||
                            simgrid::config::get_value<int>("contexts/nthreads") > 1 ||
                            simgrid::config::get_value<int>("smpi/list-leaks") != -1 ||
                            simgrid::config::get_value<bool>("smpi/display-allocs");
  return every;
}

// F2C is polymorphic: its first word is the object's vtable pointer, and the word before the
// vtable's first entry is the type's std::type_info (Itanium C++ ABI). A request's vtable pointer
// is recognised by name once, then by value.
bool is_request(const void* object)
{
  static const void* request_vtable = nullptr;
  const void* vtable = *static_cast<const void* const*>(object);
  if (vtable == request_vtable)
    return true;
  if (request_vtable != nullptr)
    return false;
  const auto* type = static_cast<const std::type_info* const*>(vtable)[-1];
  if (std::strcmp(type->name(), kRequestType) != 0)
    return false;
  request_vtable = vtable;
  return true;
}

bool asked_by_c2f = false; // set while SimGrid's F2C::c2f runs: its add_f registers whatever it is

} // namespace

int haec_f2c_add_f(void* object) asm(HAEC_ADD_F);
int haec_f2c_c2f(void* object) asm(HAEC_C2F);

int haec_f2c_add_f(void* object)
{
  static const Member real = haec::core::simgrid_symbol<Member>(HAEC_ADD_F);
  if (!asked_by_c2f && is_request(object) && !register_every_request())
    return -1; // no handle yet (F2C's own "none"): c2f will register it if Fortran asks
  return real(object);
}

int haec_f2c_c2f(void* object)
{
  static const Member real = haec::core::simgrid_symbol<Member>(HAEC_C2F);
  asked_by_c2f = true;
  const int id = real(object);
  asked_by_c2f = false;
  return id;
}
