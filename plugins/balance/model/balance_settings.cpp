#include "balance_settings.hpp"
#include "input_error.hpp"
#include "text.hpp"
#include "units.hpp"

namespace haec::balance {
namespace {

using settings::Need;
using settings::Setting;

// A function, not a global: the suite builds the table from a static initialiser of another file.
Need needs_strategy() { return Need{"haec/balance/strategy", {}}; }

void check_every(const std::string& value, const std::string& what)
{
  const long long k = units::parse_integer(value, what);
  if (k < 1 || k > 1000000000)
    throw InputError(what, "is not a positive iteration count", "balance every K >= 1 iterations, e.g. --every 5");
}

void check_tolerance(const std::string& value, const std::string& what)
{
  make_strategy("refine", units::parse_number(value, what), what);
}

void check_pinned(const std::string& value, const std::string& what)
{
  parse_rank_set(value, what);
}

} // namespace

std::set<int> parse_rank_set(const std::string& text, const std::string& what)
{
  std::set<int> out;
  for (const std::string& part : haec::text::split(text, ',')) {
    if (part.empty())
      continue;
    const size_t dash = part.find('-');
    long long a       = units::parse_integer(part.substr(0, dash), what);
    long long b       = dash == std::string::npos ? a : units::parse_integer(part.substr(dash + 1), what);
    if (a < 0 || b < a || b > 1 << 24)
      throw InputError(what, "'" + part + "' is not a rank or rank range", "write e.g. 0,3-5");
    for (long long r = a; r <= b; ++r)
      out.insert(static_cast<int>(r));
  }
  return out;
}

std::vector<Setting> settings_rows()
{
  Setting strategy{"haec/balance/strategy", "Load-balancing strategy: greedy or refine (empty: off)", "",
                   settings::one_of(strategy_names(), "balancing strategy")};
  strategy.option   = "--balance";
  strategy.reserved = true;
  Setting every{"haec/balance/every", "Balance every K iterations", "10", check_every, {needs_strategy()}};
  every.option   = "--every";
  every.reserved = true;
  return {strategy, every,
          Setting{"haec/balance/tolerance", "With refine, nodes above tolerance x mean load give ranks away", "1.05",
                  check_tolerance, {Need{"haec/balance/strategy", {"refine"}}}},
          Setting{"haec/balance/footprint", "Bytes of memory a migrating rank sends to its new node", "1e6",
                  settings::check_non_negative, {needs_strategy()}},
          Setting{"haec/balance/pinned", "Ranks that never migrate, e.g. 0,3-5", "", check_pinned, {needs_strategy()}}};
}

BalanceConfig balance_config(const settings::Values& v)
{
  BalanceConfig c;
  c.strategy_name = v.text("haec/balance/strategy");
  c.every         = static_cast<int>(v.integer("haec/balance/every"));
  c.footprint     = v.number("haec/balance/footprint");
  c.pinned        = parse_rank_set(v.text("haec/balance/pinned"), v.what("haec/balance/pinned"));
  if (!c.strategy_name.empty())
    c.strategy = make_strategy(c.strategy_name, v.number("haec/balance/tolerance"), v.what("haec/balance/strategy"));
  return c;
}

} // namespace haec::balance
