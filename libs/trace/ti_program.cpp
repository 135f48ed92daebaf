#include "ti_program.hpp"

#include "mapping_detail.hpp"
#include "ti_schema.hpp"

#include <algorithm>
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

// The root of SimGrid's rooted collectives (bcast COUNT ROOT, reduce COUNT COMP ROOT, gather and
// scatter SCOUNT RCOUNT ROOT), -1 for the others.
int root(const std::vector<std::string>& f)
{
  const std::string& n = f[1];
  const size_t i       = n == "bcast" ? 3 : n == "reduce" || n == "gather" || n == "scatter" ? 4 : 0;
  return i == 0 ? -1 : i < f.size() ? static_cast<int>(integer(f[i])) : 0; // SimGrid's default root: 0
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

namespace {

// Our actions (ti_schema.hpp): their numbers kept for the matching, the kind it plays them as.
TiAction haec_action(const std::vector<std::string>& f, TiAction a, std::vector<long long>& numbers)
{
  const std::string& n = f[1];
  std::vector<long long> v = haec_fields(f);
  a.first = static_cast<uint32_t>(numbers.size());
  a.count = static_cast<uint32_t>(v.size());
  numbers.insert(numbers.end(), v.begin(), v.end());
  auto size = [](long long type) { return std::max(datatype_size(std::to_string(type)), 0); };
  if (n.rfind("haec_comm_", 0) == 0) {
    a.kind = TiAction::Comm;
  } else if (n.rfind("haec_win_", 0) == 0 || n == "haec_put" || n == "haec_get" || n == "haec_accumulate" ||
             n == "haec_get_accumulate" || n == "haec_compare_and_swap" || n == "haec_rput" || n == "haec_rget" ||
             n == "haec_raccumulate" || n == "haec_rget_accumulate") {
    a.kind = TiAction::Win;
  } else if (n == "haec_bsend" || n == "haec_ssend") { // DST TAG COUNT TYPE
    a.kind  = TiAction::Send;
    a.mode  = static_cast<uint8_t>(n[5]);
    a.peer  = static_cast<int>(v[0]);
    a.tag   = v[1];
    a.bytes = static_cast<uint64_t>(v[2]) * static_cast<uint64_t>(size(v[3]));
  } else if (n == "haec_ibsend" || n == "haec_issend") { // ID DST TAG COUNT TYPE
    a.kind  = TiAction::IdSend;
    a.mode  = static_cast<uint8_t>(n[6]);
    a.peer  = static_cast<int>(v[1]);
    a.tag   = v[2];
    a.bytes = static_cast<uint64_t>(v[3]) * static_cast<uint64_t>(size(v[4]));
  } else if (n == "haec_wait") {
    a.kind = TiAction::NbWait;
    a.tag  = v[0];
  } else if (n == "haec_request_free") {
    a.kind = TiAction::IdFree;
    a.tag  = v[0];
  } else if (n.rfind("haec_i", 0) == 0) { // ID C ...
    a.kind = TiAction::NbColl;
    a.tag  = v[0];
    a.comm = static_cast<int32_t>(v[1]);
  } else { // haec_<collective> C ...
    a.kind = TiAction::Coll;
    a.comm = static_cast<int32_t>(v[0]);
  }
  return a;
}

} // namespace

TiAction to_action(const std::vector<std::string>& f, uint32_t line, int default_type_size,
                   std::vector<long long>& numbers)
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
    a.peer = root(f); // SimGrid's rooted collectives: the root, compared across ranks
  } else if (haec_schemas(n) != nullptr) {
    return haec_action(f, a, numbers);
  }
  return a;
}

} // namespace haec::trace
