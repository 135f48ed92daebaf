// Replay of communicator creation (pmpi/record_comm.cpp; formats in libs/trace/README.md):
//   haec_comm_split P NEW COLOR KEY      haec_comm_dup P NEW      haec_comm_create P NEW N W...
//   haec_comm_split_type P NEW N W...    haec_comm_free C
// Each makes the messages SMPI made for the call in emulation, and gives the rank communicator
// NEW with the members the program's had:
//   - dup and create call MPI_Comm_dup / MPI_Comm_create (group: the world ranks W...): their only
//     message is the broadcast of the new communicator's id, as in emulation;
//   - split: SMPI's Comm::split gathers every rank's color and key on the parent's rank 0, which
//     sends each member its group, then the members' new communicator broadcasts its id. In replay
//     SMPI copies no data, so its own split would build its groups from nothing; instead the same
//     messages are made with public calls (MPI_Igather of two ints, 8-byte sends of the groups,
//     group by group as SMPI orders them) while the colors and keys travel through this process's
//     memory, and the members create the communicator with MPI_Comm_create (the broadcast);
//   - split_type communicates not at all in SMPI (ranks sharing a host): MPI_Comm_split_type gives
//     the recorded group when the replay places the ranks as the recording did; otherwise the
//     recorded group is created with MPI_Comm_create (one broadcast more than the recording had).
// A new communicator's id, which SMPI's message matching compares, travels in that broadcast: in
// replay SMPI copies no data, so the members would keep different ids and never match a message.
// While a rank makes a communicator, SMPI's broadcast is therefore wrapped: it still runs (and is
// timed), then the root's id is copied to the members through this process's memory (as
// replay_rma_actions.cpp does for the addresses a window's allgather exchanges).
#include "core_parts.hpp"
#include "replay_state.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <xbt/replay.hpp>

#include <algorithm>
#include <climits>
#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

// SMPI's collective selector (smpi_coll.hpp, not installed): the broadcast a communicator's
// constructor sends its id with.
namespace simgrid::smpi::colls {
extern int (*bcast)(void* buf, int count, MPI_Datatype datatype, int root, MPI_Comm comm);
}

namespace haec::core::parts {
namespace {

namespace sg4 = simgrid::s4u;

// ---- the new communicator's id --------------------------------------------------------------------
using Bcast      = int (*)(void*, int, MPI_Datatype, int, MPI_Comm);
Bcast smpi_bcast = nullptr;

std::set<long>& making() // the actors making a communicator now
{
  static std::set<long> m;
  return m;
}

std::vector<int> members(MPI_Comm comm) // world ranks in rank order
{
  MPI_Group g = MPI_GROUP_NULL, world = MPI_GROUP_NULL;
  PMPI_Comm_group(comm, &g);
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  int n = 0;
  PMPI_Group_size(g, &n);
  std::vector<int> ranks(static_cast<size_t>(n)), out(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    ranks[static_cast<size_t>(i)] = i;
  PMPI_Group_translate_ranks(g, n, ranks.data(), world, out.data());
  PMPI_Group_free(&g);
  PMPI_Group_free(&world);
  return out;
}

// One new communicator's id on its way: (members, how many communicators of these members were made
// before) -> the root's id and how many members still have to read it.
std::map<std::pair<std::vector<int>, long long>, std::pair<int, int>>& ids_on_the_way()
{
  static std::map<std::pair<std::vector<int>, long long>, std::pair<int, int>> m;
  return m;
}

int id_bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
  const long pid = sg4::this_actor::get_pid();
  if (!making().count(pid) || count != 1 || type != MPI_INT || root != 0)
    return smpi_bcast(buf, count, type, root, comm);
  static std::map<std::pair<long, std::vector<int>>, long long> made; // (actor, members) -> communicators
  const std::vector<int> who = members(comm);
  const auto key             = std::make_pair(who, made[{pid, who}]++);
  int rank                   = 0;
  PMPI_Comm_rank(comm, &rank);
  if (rank == 0 && who.size() > 1)
    ids_on_the_way()[key] = {*static_cast<int*>(buf), static_cast<int>(who.size()) - 1};
  const int rc = smpi_bcast(buf, count, type, root, comm); // every member has it once this returns
  if (rank != 0) {
    auto it = ids_on_the_way().find(key);
    if (it != ids_on_the_way().end()) {
      *static_cast<int*>(buf) = it->second.first;
      if (--it->second.second == 0)
        ids_on_the_way().erase(it);
    }
  }
  return rc;
}

// Makes a communicator with `make` while the id broadcast is copied.
template <class F> int making_comm(F make)
{
  const long pid = sg4::this_actor::get_pid();
  making().insert(pid);
  const int rc = make();
  making().erase(pid);
  return rc;
}

// SMPI's split sends with tag -123, which public calls cannot use; this one is as unlikely to meet
// the program's own messages on the parent communicator.
constexpr int kSplitTag     = INT_MAX - 123;
constexpr int kPointerBytes = static_cast<int>(sizeof(void*)); // SMPI sends each member an MPI_Group

// One split of a parent communicator, shared by its ranks: each one's color and key by parent rank.
struct Split {
  std::vector<std::pair<int, int>> color_key;
  int left = 0; // ranks that have not finished with it
};
std::map<std::pair<long long, long long>, Split>& splits() // (parent id, n-th split of it)
{
  static std::map<std::pair<long long, long long>, Split> s;
  return s;
}
long long next_split(long long parent) // this rank's
{
  static std::map<std::pair<long, long long>, long long> counts;
  return counts[{sg4::this_actor::get_pid(), parent}]++;
}

// The groups as SMPI's Comm::split forms them: by the first parent rank of each color, members
// ordered by (key, parent rank); MPI_UNDEFINED (-1 here) belongs to none.
std::vector<std::vector<int>> groups_of(const std::vector<std::pair<int, int>>& color_key)
{
  std::vector<std::vector<int>> groups;
  std::map<int, size_t> index;
  for (size_t r = 0; r < color_key.size(); ++r) {
    const int color = color_key[r].first;
    if (color < 0)
      continue;
    auto [it, fresh] = index.try_emplace(color, groups.size());
    if (fresh)
      groups.emplace_back();
    groups[it->second].push_back(static_cast<int>(r));
  }
  for (auto& g : groups)
    std::stable_sort(g.begin(), g.end(),
                     [&](int x, int y) { return color_key[static_cast<size_t>(x)].second < color_key[static_cast<size_t>(y)].second; });
  return groups;
}

MPI_Group group_of(const Action& a, MPI_Comm comm, const std::vector<int>& ranks)
{
  MPI_Group all = MPI_GROUP_NULL, g = MPI_GROUP_NULL;
  MPI_Comm_group(comm, &all);
  check_call(a, MPI_Group_incl(all, static_cast<int>(ranks.size()), ranks.data(), &g));
  MPI_Group_free(&all);
  return g;
}

// `NEW` of an action: the communicator's id, or -1 where the program got MPI_COMM_NULL.
long long new_id(const Action& a, size_t i)
{
  return i < a.size() && a[i] == "-1" ? -1 : field(a, i);
}

void created(const Action& a, long long id, MPI_Comm comm)
{
  if ((id < 0) != (comm == MPI_COMM_NULL))
    fail_action(a, id < 0 ? "the rank gets a communicator where the recording got none"
                          : "the rank gets no communicator where the recording got " + std::to_string(id));
  if (id >= 0)
    add_comm(a, id, comm);
}

void comm_split(Action& a) // P NEW COLOR KEY
{
  const MPI_Comm parent = comm_field(a, 2);
  const long long id = new_id(a, 3), pid = field(a, 2);
  const int color = a[4] == "-1" ? -1 : small_field(a, 4), key = signed_field(a, 5);
  const int n = comm_size(parent);
  int me      = 0;
  MPI_Comm_rank(parent, &me);
  const auto entry = std::make_pair(pid, next_split(pid));
  Split& s         = splits()[entry];
  if (s.color_key.empty()) {
    s.color_key.assign(static_cast<size_t>(n), {-1, 0});
    s.left = n;
  }
  s.color_key[static_cast<size_t>(me)] = {color, key};
  // Every rank's color and key to the parent's rank 0 (SMPI: gather__default, an igather and a wait).
  int mine[2] = {color, key};
  std::vector<int> all(me == 0 ? 2 * static_cast<size_t>(n) : 2);
  MPI_Request r = MPI_REQUEST_NULL;
  check_call(a, MPI_Igather(mine, 2, MPI_INT, all.data(), 2, MPI_INT, 0, parent, &r));
  check_call(a, MPI_Wait(&r, MPI_STATUS_IGNORE));
  // Rank 0 has heard from every rank once its gather is done, a member once rank 0's message came.
  std::vector<std::vector<int>> groups;
  char pointer[sizeof(void*)] = {};
  if (me == 0) { // each group to its members, a waitall per group
    groups = groups_of(s.color_key);
    for (const auto& g : groups) {
      std::vector<MPI_Request> sends;
      for (int member : g)
        if (member != 0) {
          sends.emplace_back();
          check_call(a, MPI_Isend(pointer, kPointerBytes, MPI_BYTE, member, kSplitTag, parent, &sends.back()));
        }
      check_call(a, MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE));
    }
  } else if (color >= 0) {
    check_call(a, MPI_Recv(pointer, kPointerBytes, MPI_BYTE, 0, kSplitTag, parent, MPI_STATUS_IGNORE));
    groups = groups_of(s.color_key);
  }
  MPI_Comm result = MPI_COMM_NULL;
  if (color >= 0) { // the members' new communicator (its constructor broadcasts its id)
    auto g = std::find_if(groups.begin(), groups.end(), [me](const std::vector<int>& m) {
      return std::find(m.begin(), m.end(), me) != m.end();
    });
    MPI_Group group = group_of(a, parent, *g);
    check_call(a, making_comm([&] { return MPI_Comm_create(parent, group, &result); }));
    MPI_Group_free(&group);
  }
  if (--s.left == 0) // every rank is done with the colors
    splits().erase(entry);
  created(a, id, result);
}

void comm_dup(Action& a) // P NEW
{
  MPI_Comm result = MPI_COMM_NULL;
  const MPI_Comm parent = comm_field(a, 2);
  check_call(a, making_comm([&] { return MPI_Comm_dup(parent, &result); }));
  created(a, new_id(a, 3), result);
}

// N W...: the world ranks of a group, checked against the line's length.
std::vector<int> world_ranks(const Action& a, size_t i)
{
  const int n = small_field(a, i);
  if (a.size() != i + 1 + static_cast<size_t>(n))
    fail_action(a, "the group names " + a[i] + " ranks but the line lists " + std::to_string(a.size() - i - 1));
  std::vector<int> ranks;
  for (int k = 0; k < n; ++k)
    ranks.push_back(rank_field(a, i + 1 + static_cast<size_t>(k)));
  return ranks;
}

void comm_create(Action& a) // P NEW N W...
{
  const MPI_Comm parent = comm_field(a, 2);
  MPI_Group group       = group_of(a, MPI_COMM_WORLD, world_ranks(a, 4));
  MPI_Comm result       = MPI_COMM_NULL;
  check_call(a, making_comm([&] { return MPI_Comm_create(parent, group, &result); }));
  MPI_Group_free(&group);
  created(a, new_id(a, 3), result);
}

void comm_split_type(Action& a) // P NEW N W...
{
  const MPI_Comm parent     = comm_field(a, 2);
  const long long id        = new_id(a, 3);
  const std::vector<int> ws = world_ranks(a, 4);
  if (id < 0)
    return;
  MPI_Comm result = MPI_COMM_NULL;
  check_call(a, MPI_Comm_split_type(parent, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &result));
  if (result == MPI_COMM_NULL || members(result) != ws) { // placed otherwise than when recorded
    if (result != MPI_COMM_NULL)
      MPI_Comm_free(&result);
    MPI_Group group = group_of(a, MPI_COMM_WORLD, ws);
    check_call(a, making_comm([&] { return MPI_Comm_create(parent, group, &result); }));
    MPI_Group_free(&group);
  }
  created(a, id, result);
}

void comm_free(Action& a) // C
{
  MPI_Comm comm = comm_field(a, 2);
  if (comm == MPI_COMM_WORLD || comm == MPI_COMM_SELF)
    fail_action(a, "MPI_COMM_WORLD and MPI_COMM_SELF are not freed");
  check_call(a, MPI_Comm_free(&comm));
  remove_comm(a, field(a, 2));
}

} // namespace

void register_comm_replay_actions()
{
  if (smpi_bcast == nullptr) { // SMPI has chosen its collectives when the ranks register their actions
    smpi_bcast                  = simgrid::smpi::colls::bcast;
    simgrid::smpi::colls::bcast = id_bcast;
  }
  register_replay_action("haec_comm_split", comm_split);
  register_replay_action("haec_comm_dup", comm_dup);
  register_replay_action("haec_comm_create", comm_create);
  register_replay_action("haec_comm_split_type", comm_split_type);
  register_replay_action("haec_comm_free", comm_free);
}

} // namespace haec::core::parts
