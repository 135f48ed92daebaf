#include "blocked_ranks.hpp"

#include <algorithm>

namespace haec {
namespace {

// What a rank does, without the rank: equal texts of neighbouring ranks are grouped.
std::string activity(const BlockedRank& b, bool plural)
{
  if (b.call.empty())
    return plural ? "are blocked in a call haec does not see (build with haec cc)"
                  : "is blocked in a call haec does not see (build with haec cc)";
  std::string s = (plural ? "wait in " : "waits in ") + b.call;
  if (!b.peer.empty())
    s += " " + b.peer;
  if (b.tag >= 0)
    s += " tag " + std::to_string(b.tag);
  if (!b.where.empty())
    s += " (" + b.where + ")";
  return s;
}

std::string rank_range(int first, int last)
{
  if (first == last)
    return "rank " + std::to_string(first);
  return "ranks " + std::to_string(first) + (last == first + 1 ? ", " : "-") + std::to_string(last);
}

struct Part {
  std::string text;
  size_t ranks;
};

// Groups runs of consecutive ranks with the same activity (when it names no peer and no place:
// those make every rank's entry its own).
std::vector<Part> grouped_parts(const std::vector<BlockedRank>& blocked)
{
  std::vector<Part> parts;
  for (size_t i = 0; i < blocked.size();) {
    size_t j = i + 1;
    const std::string what = activity(blocked[i], false);
    while (j < blocked.size() && blocked[i].peer.empty() && blocked[i].where.empty() &&
           blocked[j].rank == blocked[j - 1].rank + 1 && activity(blocked[j], false) == what)
      ++j;
    parts.push_back({rank_range(blocked[i].rank, blocked[j - 1].rank) + " " + activity(blocked[i], j - i > 1), j - i});
    i = j;
  }
  return parts;
}

std::string ended_part(std::vector<int> ended)
{
  std::sort(ended.begin(), ended.end());
  std::string ranks;
  for (size_t i = 0; i < ended.size();) {
    size_t j = i + 1;
    while (j < ended.size() && ended[j] == ended[j - 1] + 1)
      ++j;
    ranks += (ranks.empty() ? "" : ", ") + std::to_string(ended[i]) +
             (j - i > 1 ? (j - i == 2 ? ", " : "-") + std::to_string(ended[j - 1]) : "");
    i = j;
  }
  return (ended.size() == 1 ? "rank " : "ranks ") + ranks + " ended without calling MPI_Finalize";
}

} // namespace

std::string describe_blocked_ranks(std::vector<BlockedRank> blocked, std::vector<int> ended, size_t budget,
                                   std::string* full)
{
  std::sort(blocked.begin(), blocked.end(), [](const BlockedRank& a, const BlockedRank& b) { return a.rank < b.rank; });
  std::vector<Part> parts = grouped_parts(blocked);
  if (!ended.empty())
    parts.insert(parts.begin(), Part{ended_part(ended), 0}); // the likely cause first
  std::string all, line;
  size_t shown = 0, hidden_ranks = 0;
  for (const auto& p : parts) {
    all += (all.empty() ? "" : "; ") + p.text;
    if (shown == 0 || (hidden_ranks == 0 && line.size() + p.text.size() + 2 <= budget)) {
      line += (line.empty() ? "" : "; ") + p.text;
      ++shown;
    } else {
      hidden_ranks += p.ranks;
    }
  }
  if (shown < parts.size())
    line += "; and " + std::to_string(hidden_ranks) + " more blocked rank" + (hidden_ranks == 1 ? "" : "s");
  if (full)
    *full = all;
  return line;
}

} // namespace haec
