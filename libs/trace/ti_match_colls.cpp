// The matching simulation's communicators and collectives (ti_matcher.hpp). A communicator has one
// id on every rank: 0 is MPI_COMM_WORLD, 1 each rank's MPI_COMM_SELF, the others are made by
// haec_comm_* lines, whose members are worked out here as SMPI works them out (a split's groups
// from every rank's color and key). Each communicator has its own sequence of blocking collectives
// (communicator and window creation included) and of non-blocking ones: the k-th of every member
// must be the same action, with the same root; a collective completes when all members entered it.
#include "ti_matcher.hpp"

#include "input_error.hpp"

#include <algorithm>
#include <map>

namespace haec::trace::detail {
namespace {

const char* kCorrupt = "the trace is corrupt; record it again with haec trace record";

long long self_key(int r)
{
  return -2 - static_cast<long long>(r);
}

std::string comm_label(long long key)
{
  if (key == 0)
    return "communicator 0 (MPI_COMM_WORLD)";
  if (key < 0)
    return "communicator 1 (MPI_COMM_SELF)";
  return "communicator " + std::to_string(key);
}

// Where the root is among a haec_<op>'s fields (after C), and the vectors' layout: fixed fields
// (C included) before `vectors` per-rank vectors of `width` numbers each.
struct Layout {
  int root    = -1;
  size_t fixed = 0, vectors = 0, width = 1;
};

Layout layout(const std::string& op)
{
  static const std::map<std::string, Layout> l = {
      {"bcast", {2, 4, 0, 1}},     {"reduce", {2, 4, 0, 1}},      {"gather", {5, 6, 0, 1}},
      {"scatter", {5, 6, 0, 1}},   {"gatherv", {4, 5, 1, 1}},     {"scatterv", {4, 5, 1, 1}},
      {"allgatherv", {-1, 4, 1, 1}}, {"reduce_scatter", {-1, 3, 1, 1}}, {"alltoallv", {-1, 3, 2, 1}},
      {"alltoallw", {-1, 1, 2, 2}}};
  auto it = l.find(op);
  return it == l.end() ? Layout{} : it->second;
}

// A blocking collective on MPI_COMM_WORLD may be SimGrid's action on one rank and ours on another
// (ours carries what SimGrid's cannot: a derived type, a non-commutative operation, a rank's
// MPI_IN_PLACE): both make the same SMPI collective, so they are the same collective.
std::string canonical(const std::string& name)
{
  const std::string op = name.rfind("haec_", 0) == 0 ? name.substr(5) : name;
  return op == "reducescatter" ? "reduce_scatter" : op;
}

} // namespace

Comm& Matcher::comm_of(int r, const TiAction& a, long long id)
{
  if (id == 0)
    return comms_.at(0);
  if (id == 1) {
    auto [it, fresh] = comms_.try_emplace(self_key(r));
    if (fresh) {
      it->second.members = {r};
      it->second.index[r] = 0;
    }
    return it->second;
  }
  const RankState& s = state_[static_cast<size_t>(r)];
  if (!s.comms.count(id)) {
    auto freed = s.comms_freed.find(id);
    fail(r, a,
         action_name(a.name) + " uses communicator " + std::to_string(id) + ", which rank " + std::to_string(r) +
             (freed != s.comms_freed.end() ? " freed at " + freed->second
                                           : " never made (no haec_comm_* line of the rank makes it)"),
         kCorrupt);
  }
  return comms_.at(id);
}

void Matcher::post_collective(int r, const TiAction& a, long long id, bool nonblocking)
{
  Comm& c             = comm_of(r, a, id);
  const long long key = id == 1 ? self_key(r) : id;
  RankState& s        = state_[static_cast<size_t>(r)];
  const std::string name = action_name(a.name);
  const std::string op   = name.rfind("haec_", 0) == 0 ? name.substr(nonblocking ? 6 : 5) : name;
  // our collectives: the root and the vectors' lengths against this communicator's size
  long long root = a.kind == TiAction::Coll && name.rfind("haec_", 0) != 0 ? a.peer : -1;
  if (name.rfind("haec_", 0) == 0 && (a.kind == TiAction::Coll || a.kind == TiAction::NbColl)) {
    const Layout l     = layout(op);
    const size_t shift = nonblocking ? 1 : 0; // the ID
    const long long* f = fields(r, a);
    if (l.root >= 0) {
      root = f[shift + static_cast<size_t>(l.root)];
      if (root >= c.size())
        fail(r, a, "root " + std::to_string(root) + " of " + name + " is not a rank of " + comm_label(key) + " (" +
                       std::to_string(c.size()) + " ranks)",
             kCorrupt);
    }
    const size_t want = shift + l.fixed + l.vectors * l.width * static_cast<size_t>(c.size());
    if (l.vectors && a.count != want)
      fail(r, a,
           name + " has " + std::to_string(a.count - shift - l.fixed) + " per-rank numbers where " + comm_label(key) +
               "'s " + std::to_string(c.size()) + " ranks need " + std::to_string(want - shift - l.fixed),
           kCorrupt);
    // alltoallv/w: MPI_IN_PLACE (-1) stands for the send counts only, all of them or none
    if (op == "alltoallv" || op == "alltoallw") {
      const size_t n = static_cast<size_t>(c.size()) * l.width, from = shift + l.fixed;
      for (size_t i = 0; i < 2 * n; i += l.width)
        if ((i >= n && f[from + i] < 0) || (i < n && (f[from + i] < 0) != (f[from] < 0)))
          fail(r, a, name + " has a count of -1 (MPI_IN_PLACE) where " +
                         (i >= n ? std::string("counts are received") : std::string("other send counts are not")),
               kCorrupt);
    }
  }
  const uint64_t k = ++(nonblocking ? s.nb_colls : s.colls)[key];
  auto& list       = nonblocking ? c.nonblocking : c.blocking;
  if (list.size() < k)
    list.resize(k);
  Collective& col = list[k - 1];
  const char* kind = nonblocking ? "non-blocking collective" : "collective";
  const std::string where = key == 0 ? "" : " on " + comm_label(key);
  if (col.first_rank < 0) {
    col.name       = a.name;
    col.first_rank = r;
    col.line       = a.line;
    col.root       = root;
    col.by_member.assign(static_cast<size_t>(c.size()), nullptr);
  } else if (col.name != a.name && (nonblocking || canonical(action_name(col.name)) != canonical(name))) {
    fail(r, a,
         "rank " + std::to_string(r) + "'s " + ordinal(k) + " " + kind + where + " is " + name + ", rank " +
             std::to_string(col.first_rank) + "'s is " + action_name(col.name) + " (" +
             base(actions(col.first_rank).file) + ":" + std::to_string(col.line) + ")",
         "every rank calls them in the same order; the trace is corrupt");
  } else if (col.root != root) {
    fail(r, a,
         "rank " + std::to_string(r) + "'s " + ordinal(k) + " " + kind + where + " (" + name + ") has root " +
             std::to_string(root) + ", rank " + std::to_string(col.first_rank) + "'s has root " +
             std::to_string(col.root) + " (" + base(actions(col.first_rank).file) + ":" + std::to_string(col.line) + ")",
         "every rank of a collective names the same root; the trace is corrupt");
  }
  col.by_member[static_cast<size_t>(c.index.at(r))] = &a;
  if (++col.arrived == c.size()) {
    resolve(c, col);
    wake(col.waiting);
  }
  if (nonblocking) {
    if (!s.ids.emplace(a.tag, IdEntry{true, key, k, Request{}, &a}).second)
      fail(r, a, name + " reuses the ID " + std::to_string(a.tag) + " of a pending request",
           "each pending request has its own ID; the trace is corrupt");
    return;
  }
  s.in_collective = true;
  s.coll_comm     = key;
  s.coll_k        = k;
  s.coll_nb       = false;
}

bool Matcher::collective_complete(int r)
{
  RankState& s    = state_[static_cast<size_t>(r)];
  Comm& c         = comms_.at(s.coll_comm);
  Collective& col = (s.coll_nb ? c.nonblocking : c.blocking)[s.coll_k - 1];
  if (col.arrived == c.size())
    return true;
  col.waiting.push_back(r);
  return false;
}

// ---- making communicators -------------------------------------------------------------------------
void Matcher::post_comm(int r, const TiAction& a)
{
  RankState& s           = state_[static_cast<size_t>(r)];
  const std::string name = action_name(a.name);
  const long long* f     = fields(r, a);
  if (name == "haec_comm_free") {
    if (f[0] < 2)
      fail(r, a, "communicators 0 (MPI_COMM_WORLD) and 1 (MPI_COMM_SELF) are not freed", kCorrupt);
    comm_of(r, a, f[0]); // held: else the line names where it went
    s.comms.erase(f[0]);
    s.comms_freed[f[0]] = base(actions(r).file) + ":" + std::to_string(a.line);
    return;
  }
  const long long parent = f[0], made = f[1];
  comm_of(r, a, parent);
  if (name == "haec_comm_split" || name == "haec_comm_dup") {
    const bool member = name == "haec_comm_dup" || f[2] >= 0; // a color, or MPI_UNDEFINED (-1)
    if (member != (made >= 2))
      fail(r, a,
           name + (member ? " makes no communicator (" + std::to_string(made) + ") for a member"
                          : " makes communicator " + std::to_string(made) + " for a rank of color -1 (MPI_UNDEFINED)"),
           kCorrupt);
    post_collective(r, a, parent, false); // the split is worked out when every rank of the parent is there
    return;
  }
  // haec_comm_create / haec_comm_split_type P NEW N W...: the rank's group, world ranks in rank order
  if (made == -1)
    return; // not a member (SMPI does nothing)
  if (made < 2)
    fail(r, a, name + " makes communicator " + std::to_string(made) + ", an id of MPI_COMM_WORLD or MPI_COMM_SELF",
         kCorrupt);
  const std::vector<int> members(f + 3, f + a.count);
  if (std::find(members.begin(), members.end(), r) == members.end())
    fail(r, a, name + " gives rank " + std::to_string(r) + " communicator " + std::to_string(made) +
                   " whose members it is not one of",
         kCorrupt);
  auto [it, fresh] = comms_.try_emplace(made);
  Comm& c          = it->second;
  if (fresh) {
    c.members = members;
    for (size_t i = 0; i < members.size(); ++i)
      if (!c.index.emplace(members[i], static_cast<int>(i)).second)
        fail(r, a, name + " lists rank " + std::to_string(members[i]) + " twice", kCorrupt);
    c.made_at = base(actions(r).file) + ":" + std::to_string(a.line);
    c.made_by = name;
  } else if (c.members != members || c.made_by != name) {
    fail(r, a,
         "communicator " + std::to_string(made) + " is made here with other members than at " + c.made_at +
             " (ids name one communicator on every rank)",
         kCorrupt);
  }
  if (!s.comms.insert(made).second)
    fail(r, a, "rank " + std::to_string(r) + " makes communicator " + std::to_string(made) + " twice", kCorrupt);
  if (name == "haec_comm_create") // the new communicator broadcasts its id to its members
    post_collective(r, a, made, false);
}

void Matcher::resolve(Comm& c, Collective& col)
{
  const std::string name = action_name(col.name);
  std::vector<std::pair<int, const TiAction*>> by; // (world rank, action) by member position
  for (size_t pos = 0; pos < col.by_member.size(); ++pos)
    by.emplace_back(c.members[pos], col.by_member[pos]);
  auto f = [&](size_t pos) { return fields(by[pos].first, *by[pos].second); };
  if (name.rfind("haec_win_", 0) == 0) { // the members name the same window
    for (size_t pos = 1; pos < by.size(); ++pos)
      if (f(pos)[0] != f(0)[0])
        fail(by[pos].first, *by[pos].second,
             name + " of window " + std::to_string(f(pos)[0]) + " where rank " + std::to_string(by[0].first) +
                 " names window " + std::to_string(f(0)[0]) + " (" + at(by[0].first, *by[0].second) + ")",
             "every member of a window's communicator calls its collective actions alike; the trace is corrupt");
    return;
  }
  if (name != "haec_comm_split" && name != "haec_comm_dup")
    return;
  // The groups as SMPI's Comm::split forms them: by color, ordered by (key, parent rank).
  std::map<long long, std::vector<size_t>> groups;
  for (size_t pos = 0; pos < by.size(); ++pos)
    if (name == "haec_comm_dup" || f(pos)[2] >= 0)
      groups[name == "haec_comm_dup" ? 0 : f(pos)[2]].push_back(pos);
  for (auto& [color, g] : groups) {
    if (name == "haec_comm_split")
      std::stable_sort(g.begin(), g.end(), [&](size_t x, size_t y) { return f(x)[3] < f(y)[3]; });
    const size_t lead  = *std::min_element(g.begin(), g.end());
    const long long id = f(lead)[1];
    for (size_t pos : g)
      if (f(pos)[1] != id)
        fail(by[pos].first, *by[pos].second,
             "rank " + std::to_string(by[pos].first) + " gets communicator " + std::to_string(f(pos)[1]) + " from " +
                 name + ", rank " + std::to_string(by[lead].first) + " of the same group gets " + std::to_string(id) +
                 " (" + at(by[lead].first, *by[lead].second) + ")",
             kCorrupt);
    auto [it, fresh] = comms_.try_emplace(id);
    if (!fresh)
      fail(by[lead].first, *by[lead].second,
           name + " makes communicator " + std::to_string(id) + ", an id already made at " + it->second.made_at,
           kCorrupt);
    Comm& made = it->second;
    for (size_t pos : g) {
      made.index[by[pos].first] = static_cast<int>(made.members.size());
      made.members.push_back(by[pos].first);
      state_[static_cast<size_t>(by[pos].first)].comms.insert(id);
    }
    made.made_at = base(actions(by[lead].first).file) + ":" + std::to_string(by[lead].second->line);
    made.made_by = name;
  }
}

void Matcher::check_collectives_joined() const
{
  for (auto const& [key, c] : comms_)
    for (const auto* list : {&c.blocking, &c.nonblocking})
      for (size_t k = 0; k < list->size(); ++k) {
        const Collective& col = (*list)[k];
        if (col.arrived == 0 || col.arrived == c.size())
          continue;
        for (size_t pos = 0; pos < c.members.size(); ++pos) {
          const int w = c.members[pos];
          if (col.by_member[pos] != nullptr || !state_[static_cast<size_t>(w)].done)
            continue;
          const TiAction& first = *col.by_member[static_cast<size_t>(c.index.at(col.first_rank))];
          throw InputError(at(col.first_rank, first),
                           action_name(col.name) + " (the " + ordinal(k + 1) + " " +
                               (list == &c.blocking ? "collective" : "non-blocking collective") + " on " +
                               comm_label(key) + "): rank " + std::to_string(w) + " (" + base(actions(w).file) +
                               ") ends its trace without calling it",
                           "every member of a communicator calls its collectives; the trace is corrupt or was cut short");
        }
      }
}

} // namespace haec::trace::detail
