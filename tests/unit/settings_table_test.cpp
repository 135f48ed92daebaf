// The settings table (libs/settings, core/model/core_settings): one check per value, the needs of
// each setting, the wording of errors from the CLI and from the suite.
#include "core_settings.hpp"
#include "input_error.hpp"
#include "settings.hpp"

#include <gtest/gtest.h>

#include <set>

using namespace haec;

namespace {

std::string error_of(const settings::Values& v)
{
  try {
    core::validate_settings(v);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(SettingsTable, KeysAreUniqueAndDescribed)
{
  std::set<std::string> keys;
  for (auto const& s : core::settings_table().rows()) {
    EXPECT_TRUE(keys.insert(s.key).second) << s.key;
    EXPECT_EQ(s.key.rfind("haec/", 0), 0u) << s.key;
    EXPECT_GE(s.description.size(), 10u) << s.key;
    for (auto const& n : s.needs)
      EXPECT_NE(core::settings_table().find(n.key), nullptr) << s.key << " needs " << n.key;
  }
  EXPECT_GE(keys.size(), 45u);
}

TEST(SettingsTable, DefaultsPassTheirOwnChecks)
{
  settings::Values v(core::settings_table(), settings::Source::Suite);
  for (auto const& s : core::settings_table().rows()) {
    if (s.check && !s.default_value.empty()) {
      EXPECT_NO_THROW(s.check(s.default_value, s.key)) << s.key;
    }
  }
  EXPECT_EQ(error_of(v), "");
}

TEST(SettingsTable, UnknownKeyNamesTheClosest)
{
  try {
    core::settings_table().check_key("haec/link/windo", "--cfg haec/link/windo");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "--cfg haec/link/windo: unknown haec option; did you mean haec/link/window?");
  }
}

TEST(SettingsTable, ValuesAreRangeChecked)
{
  settings::Values cli(core::settings_table(), settings::Source::Cli);
  cli.give("haec/link/model", "dor", "--link");
  cli.give("haec/link/window", "4294967301");
  EXPECT_EQ(error_of(cli), "--cfg haec/link/window:4294967301: window too large; use at most 1000000 packets");

  settings::Values suite(core::settings_table(), settings::Source::Suite);
  suite.give("haec/power", "yes");
  suite.give("haec/power/polling", "1.5");
  EXPECT_EQ(error_of(suite), "--cfg=haec/power/polling:1.5: must be in [0,1]; give the share of a core a polling "
                             "loop uses, e.g. 0.5");
}

TEST(SettingsTable, SettingsWithoutWhatTheyNeedAreRefused)
{
  settings::Values v(core::settings_table(), settings::Source::Cli);
  v.give("haec/balance/every", "3", "--every");
  EXPECT_EQ(error_of(v), "--every 3: has no effect without --balance; add --balance, or drop this setting");

  settings::Values w(core::settings_table(), settings::Source::Suite);
  w.give("haec/link/model", "dor_r");
  w.give("haec/link/partial-window", "seed-literal");
  EXPECT_EQ(error_of(w), "--cfg=haec/link/partial-window:seed-literal: has no effect without "
                         "--cfg=haec/link/model:dor|pnc; add --cfg=haec/link/model:dor|pnc, or drop this setting");

  // Hosts carrying haec:governor make the DVFS settings count without --governor.
  settings::Values h(core::settings_table(), settings::Source::Cli);
  h.give("haec/dvfs/period", "0.5");
  EXPECT_NE(error_of(h), "");
  h.assume_active("haec/dvfs/governor");
  EXPECT_EQ(error_of(h), "");
}

TEST(SettingsTable, PluginConfigurationsCheckCombinations)
{
  settings::Values v(core::settings_table(), settings::Source::Cli);
  v.give("haec/link/model", "pnc", "--link");
  v.give("haec/link/packet-size", "8");
  EXPECT_NE(error_of(v).find("leaves no payload"), std::string::npos) << error_of(v);

  settings::Values d(core::settings_table(), settings::Source::Cli);
  d.give("haec/dvfs/governor", "ondemand", "--governor");
  d.give("haec/dvfs/up-threshold", "1.5");
  EXPECT_NE(error_of(d).find("up threshold 1.5 is outside (0,1]"), std::string::npos) << error_of(d);
}

// A suite loaded without any haec setting is passive (core/run_context.cpp): a value given or a
// setting made active by a host property each make it active.
TEST(SettingsTable, NothingGivenUntilAValueOrAnActiveSetting)
{
  settings::Values bare(core::settings_table(), settings::Source::Suite);
  EXPECT_TRUE(bare.nothing_given());
  settings::Values out(core::settings_table(), settings::Source::Suite);
  out.give("haec/out", "/tmp");
  EXPECT_FALSE(out.nothing_given());
  settings::Values hosts(core::settings_table(), settings::Source::Suite);
  hosts.assume_active("haec/dvfs/governor");
  EXPECT_FALSE(hosts.nothing_given());
}
