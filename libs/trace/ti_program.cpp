#include "ti_program.hpp"

#include "mapping_detail.hpp"

#include <cmath>
#include <cstdlib>
#include <set>

namespace haec::trace {
namespace {

// Fields are already checked numbers (ti_check.cpp); the replay truncates counts.
long long integer(const std::string& s)
{
  return static_cast<long long>(std::trunc(std::strtod(s.c_str(), nullptr)));
}

uint64_t bytes(const std::vector<std::string>& f, size_t count, size_t type, int default_type_size)
{
  const long long n = count < f.size() ? integer(f[count]) : 0;
  const int size    = type < f.size() ? datatype_size(f[type]) : default_type_size;
  return n > 0 && size > 0 ? static_cast<uint64_t>(n) * static_cast<uint64_t>(size) : 0;
}

const std::set<std::string>& collectives()
{
  static const std::set<std::string> c = {"barrier", "bcast",     "reduce",     "allreduce", "alltoall",
                                          "alltoallv", "gather",  "gatherv",    "scatter",   "scatterv",
                                          "allgather", "allgatherv", "reducescatter", "scan", "exscan"};
  return c;
}

// Index 0 is "?" (a default-constructed action). Names reach here only after the checker accepted
// them (a fixed set), so the table stays small.
std::vector<std::string>& action_names()
{
  static std::vector<std::string> names = {"?"};
  return names;
}

} // namespace

uint16_t intern_action_name(const std::string& name)
{
  std::vector<std::string>& names = action_names();
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name)
      return static_cast<uint16_t>(i);
  names.push_back(name);
  return static_cast<uint16_t>(names.size() - 1);
}

const std::string& action_name(uint16_t id)
{
  return action_names().at(id);
}

int datatype_size(const std::string& id)
{
  return mapping::detail::ti_datatype_size(id);
}

TiAction to_action(const std::vector<std::string>& f, uint32_t line, int default_type_size)
{
  TiAction a;
  a.line             = line;
  a.name             = intern_action_name(f[1]);
  const std::string& n = f[1];
  auto peer          = [&](size_t i) { return i < f.size() ? static_cast<int>(integer(f[i])) : -1; };
  if (n == "init") {
    a.kind = TiAction::Init;
  } else if (n == "finalize") {
    a.kind = TiAction::Finalize;
  } else if (n == "send" || n == "isend" || n == "recv" || n == "irecv") {
    a.kind  = n == "send" ? TiAction::Send : n == "isend" ? TiAction::Isend : n == "recv" ? TiAction::Recv : TiAction::Irecv;
    a.peer  = peer(2);
    a.tag   = integer(f[3]);
    a.bytes = bytes(f, 4, 5, default_type_size);
  } else if (n == "wait" || n == "test") {
    a.kind  = n == "wait" ? TiAction::Wait : TiAction::Test;
    a.peer  = peer(2);
    a.peer2 = peer(3);
    a.tag   = integer(f[4]);
  } else if (n == "waitall") {
    a.kind = TiAction::Waitall;
  } else if (n == "sendRecv") {
    a.kind   = TiAction::SendRecv;
    a.peer   = peer(3);
    a.peer2  = peer(5);
    a.tag    = 0; // SimGrid's sendRecv uses tag 0
    a.bytes  = bytes(f, 2, 6, default_type_size);
    a.bytes2 = bytes(f, 4, 7, default_type_size);
  } else if (collectives().count(n)) {
    a.kind = TiAction::Coll;
  } else if (n == "haec_wait") {
    a.kind = TiAction::NbWait;
    a.tag  = integer(f[2]);
  } else if (n.rfind("haec_i", 0) == 0) {
    a.kind = TiAction::NbColl;
    a.tag  = integer(f[2]);
  }
  return a;
}

} // namespace haec::trace
