// Fields of the core's replay actions: see replay_fields.hpp.
#include "replay_fields.hpp"

#include <climits>
#include <cmath>
#include <cstdlib>
#include <unordered_map>

namespace haec::core::parts {

std::string fail_message(const Action& a, const std::string& problem); // replay_location.cpp
[[noreturn]] void reject_trace_action(const std::string& message);      // replay_location.cpp

void fail_action(const Action& a, const std::string& problem)
{
  reject_trace_action(fail_message(a, problem));
}

long long field(const Action& a, size_t i, double max)
{
  if (i >= a.size())
    fail_action(a, "field " + std::to_string(i + 1) + " is missing");
  char* end = nullptr;
  double v  = std::strtod(a[i].c_str(), &end);
  if (end == a[i].c_str() || *end != '\0' || !std::isfinite(v) || v < 0 || v > max || v != std::floor(v))
    fail_action(a, "field " + std::to_string(i + 1) + " '" + a[i] + "' is not an integer in [0, " +
                       std::to_string(static_cast<long long>(max)) + "]");
  return static_cast<long long>(v);
}

int small_field(const Action& a, size_t i)
{
  return static_cast<int>(field(a, i, 2147483647.0));
}

int count_field(const Action& a, size_t i)
{
  return i < a.size() && a[i] == "-1" ? -1 : small_field(a, i);
}

int signed_field(const Action& a, size_t i)
{
  if (i >= a.size())
    fail_action(a, "field " + std::to_string(i + 1) + " is missing");
  char* end = nullptr;
  const long long v = std::strtoll(a[i].c_str(), &end, 10);
  if (end == a[i].c_str() || *end != '\0' || v < INT_MIN || v > INT_MAX)
    fail_action(a, "field " + std::to_string(i + 1) + " '" + a[i] + "' is not an integer");
  return static_cast<int>(v);
}

int world_size()
{
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

int comm_size(MPI_Comm comm)
{
  int n = 0;
  MPI_Comm_size(comm, &n);
  return n;
}

int rank_field(const Action& a, size_t i)
{
  const int r = small_field(a, i);
  if (r >= world_size())
    fail_action(a, "rank " + a[i] + " is not a rank of the " + std::to_string(world_size()) + "-rank replay");
  return r;
}

int comm_rank_field(const Action& a, size_t i, MPI_Comm comm)
{
  const int r = small_field(a, i);
  if (r >= comm_size(comm))
    fail_action(a, "rank " + a[i] + " is not a rank of the action's " + std::to_string(comm_size(comm)) +
                       "-rank communicator");
  return r;
}

// 1000 + S: a derived type of S bytes (SMPI's collectives choose by it): contiguous bytes, one per size.
MPI_Datatype derived_type(long long size)
{
  static std::unordered_map<long long, MPI_Datatype> made;
  auto [it, fresh] = made.try_emplace(size, MPI_DATATYPE_NULL);
  if (fresh) {
    MPI_Type_contiguous(static_cast<int>(size), MPI_BYTE, &it->second);
    MPI_Type_commit(&it->second);
  }
  return it->second;
}

MPI_Datatype datatype_field(const Action& a, size_t i)
{
  static const MPI_Datatype types[] = {MPI_DOUBLE,        MPI_INT,           MPI_CHAR,          MPI_SHORT,
                                       MPI_LONG,          MPI_FLOAT,         MPI_BYTE,          MPI_LONG_LONG,
                                       MPI_SIGNED_CHAR,   MPI_UNSIGNED_CHAR, MPI_UNSIGNED_SHORT, MPI_UNSIGNED,
                                       MPI_UNSIGNED_LONG, MPI_UNSIGNED_LONG_LONG, MPI_LONG_DOUBLE};
  const long long id = field(a, i);
  if (id >= 1000 && id <= 1000 + (1LL << 30))
    return derived_type(id - 1000);
  if (id >= static_cast<long long>(sizeof types / sizeof types[0]))
    fail_action(a, "datatype id " + a[i] + " is not one haec writes (0..14, 1000 + a derived type's size)");
  return types[id];
}

size_t type_size(MPI_Datatype t)
{
  int s = 0;
  MPI_Type_size(t, &s);
  return static_cast<size_t>(s);
}

void check_call(const Action& a, int rc)
{
  if (rc != MPI_SUCCESS)
    fail_action(a, "SMPI refused the call (MPI error " + std::to_string(rc) + ")");
}

} // namespace haec::core::parts
