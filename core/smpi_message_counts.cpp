// SMPI's per-communicator message numbering (core/model/message_counts.hpp) with integer keys.
// libsimgrid 3.32 calls the four Comm accessors and Comm's constructor through its PLT, so these
// preloaded definitions take their place (as replay_runner.cpp does for the replay loop). The
// numbers are SMPI's own, so messages match in the same order and every simulated time is the
// same: tests/integration/test_speedups_same_results.sh compares runs with SimGrid alone and with
// --cfg=haec/message-ids:simgrid, which sends every call back to SMPI's own maps.
#include "message_counts.hpp"
#include "simgrid_symbol.hpp"

#include <xbt/config.hpp>

#include <string>

namespace {

// The symbols SMPI 3.32 exports for simgrid::smpi::Comm's members (src/smpi/include/smpi_comm.hpp,
// not installed): member functions take the object as a first argument.
#define HAEC_COMM_SYMBOL(name) "_ZN7simgrid4smpi4Comm" name
#define HAEC_GET_SENT HAEC_COMM_SYMBOL("23get_sent_messages_countEiii")
#define HAEC_COUNT_SENT HAEC_COMM_SYMBOL("29increment_sent_messages_countEiii")
#define HAEC_GET_RECEIVED HAEC_COMM_SYMBOL("27get_received_messages_countEiii")
#define HAEC_COUNT_RECEIVED HAEC_COMM_SYMBOL("33increment_received_messages_countEiii")
#define HAEC_CONSTRUCTOR HAEC_COMM_SYMBOL("C1EPNS0_5GroupESt10shared_ptrINS0_4TopoEEbi")

using Get = unsigned (*)(void*, int, int, int);
using Count = void (*)(void*, int, int, int);
using Constructor = void (*)(void*, void*, void*, bool, int);

// SMPI's own four accessors, the ones our definitions below take the place of.
struct SmpiCounts {
  Get sent = haec::core::simgrid_symbol<Get>(HAEC_GET_SENT);
  Count count_sent = haec::core::simgrid_symbol<Count>(HAEC_COUNT_SENT);
  Get received = haec::core::simgrid_symbol<Get>(HAEC_GET_RECEIVED);
  Count count_received = haec::core::simgrid_symbol<Count>(HAEC_COUNT_RECEIVED);
};

// SMPI's own maps when --cfg=haec/message-ids:simgrid, and when actors run in parallel threads
// (contexts/nthreads > 1), where SMPI's per-communicator maps are what SimGrid itself risks; null
// otherwise. Read from SimGrid's configuration, parsed before the first communicator exists.
const SmpiCounts* choose_counts()
{
  const bool smpi_maps = simgrid::config::get_value<std::string>("haec/message-ids") == "simgrid" ||
                         simgrid::config::get_value<int>("contexts/nthreads") > 1;
  return smpi_maps ? new SmpiCounts : nullptr; // never freed: used until the process exits
}

const SmpiCounts* smpi_counts()
{
  static const SmpiCounts* const chosen = choose_counts(); // one guard per message count
  return chosen;
}

// Built on first use (whatever the order of static initialisation) and never destroyed: SMPI may
// free a communicator while the process exits.
haec::core::MessageCounts& table()
{
  static auto& counts = *new haec::core::MessageCounts;
  return counts;
}

} // namespace

// The definitions below carry SimGrid's mangled names (asm labels), so libsimgrid's calls reach them.
unsigned haec_get_sent_messages_count(void* comm, int src, int dst, int tag) asm(HAEC_GET_SENT);
void haec_increment_sent_messages_count(void* comm, int src, int dst, int tag) asm(HAEC_COUNT_SENT);
unsigned haec_get_received_messages_count(void* comm, int src, int dst, int tag) asm(HAEC_GET_RECEIVED);
void haec_increment_received_messages_count(void* comm, int src, int dst, int tag) asm(HAEC_COUNT_RECEIVED);
void haec_comm_constructor(void* comm, void* group, void* topology, bool smp, int id) asm(HAEC_CONSTRUCTOR);

unsigned haec_get_sent_messages_count(void* comm, int src, int dst, int tag)
{
  const SmpiCounts* smpi = smpi_counts();
  return smpi ? smpi->sent(comm, src, dst, tag) : table().sent(comm, src, dst, tag);
}

void haec_increment_sent_messages_count(void* comm, int src, int dst, int tag)
{
  if (const SmpiCounts* smpi = smpi_counts())
    return smpi->count_sent(comm, src, dst, tag);
  table().count_sent(comm, src, dst, tag);
}

unsigned haec_get_received_messages_count(void* comm, int src, int dst, int tag)
{
  const SmpiCounts* smpi = smpi_counts();
  return smpi ? smpi->received(comm, src, dst, tag) : table().received(comm, src, dst, tag);
}

void haec_increment_received_messages_count(void* comm, int src, int dst, int tag)
{
  if (const SmpiCounts* smpi = smpi_counts())
    return smpi->count_received(comm, src, dst, tag);
  table().count_received(comm, src, dst, tag);
}

// `topology` is SMPI's std::shared_ptr<Topo> passed by value: the caller owns it (Itanium C++ ABI),
// so its address is handed on untouched.
void haec_comm_constructor(void* comm, void* group, void* topology, bool smp, int id)
{
  static const Constructor real = haec::core::simgrid_symbol<Constructor>(HAEC_CONSTRUCTOR);
  if (!smpi_counts())
    table().forget(comm);
  real(comm, group, topology, smp, id);
}
