// The balancing plugin's settings (--cfg=haec/balance/...) and the configuration they make.
// balance_config() is the one validation of these values, called by the `haec` CLI before a run
// and by the adapter at platform creation. Pure C++.
#pragma once
#include "settings.hpp"
#include "balance_strategies.hpp"

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace haec::balance {

std::vector<settings::Setting> settings_rows();

struct BalanceConfig {
  std::string strategy_name;          // "" : off
  std::unique_ptr<Strategy> strategy; // when on
  int every        = 10;
  double footprint = 1e6;
  std::set<int> pinned;
};

// Throws haec::InputError naming the setting on a bad value.
BalanceConfig balance_config(const settings::Values& values);

// "0,3-5" -> {0, 3, 4, 5}. Throws haec::InputError naming `what`.
std::set<int> parse_rank_set(const std::string& text, const std::string& what);

} // namespace haec::balance
