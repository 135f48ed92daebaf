// Link energy (static + per bit) and the power plugin's tables.
#include "input_error.hpp"
#include "link_energy.hpp"
#include "power_tables.hpp"

#include <gtest/gtest.h>

using namespace haec::power;

// The defaults from the roco2 HAEC-SIM configuration (MODELS.md §1.1), read in mW.
TEST(LinkEnergy, RocoDefaultsPerBit)
{
  auto t = parse_link_wattage_table("optical:2.1:24.3,wireless:0:2.124", "haec/power/link-wattage");
  ASSERT_EQ(t.size(), 2u);
  // 250 Gbit/s optical: (24.3 - 2.1) W / 250e9 bit/s = 88.8 pJ/bit; 100 Gbit/s wireless: 21.24 pJ/bit.
  EXPECT_NEAR(joules_per_bit(t["optical"], 31.25e9), 88.8e-12, 1e-24);
  EXPECT_NEAR(joules_per_bit(t["wireless"], 12.5e9), 21.24e-12, 1e-24);
  // 1 s with 1 GB carried over an optical link: 2.1 J + 8e9 bit * 88.8 pJ = 2.8104 J.
  EXPECT_NEAR(link_energy_j(t["optical"], 31.25e9, 1.0, 1e9), 2.8104, 1e-12);
  // A link saturated for the whole run draws its busy power.
  EXPECT_NEAR(link_energy_j(t["optical"], 31.25e9, 2.0, 2 * 31.25e9), 2 * 24.3, 1e-12);
  EXPECT_EQ(link_energy_j(t["wireless"], 12.5e9, 5.0, 0), 0);
}

TEST(LinkEnergy, WattageRangeAndErrors)
{
  auto w = parse_wattage_range("l1", "3:13");
  EXPECT_EQ(w.idle, 3);
  EXPECT_EQ(w.busy, 13);
  EXPECT_TRUE(parse_link_wattage_table("", "x").empty());
  auto bad = [](auto f) {
    try {
      f();
    } catch (const haec::InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(bad([] { parse_wattage_range("l1", "3"); }),
            "link l1 property wattage_range: '3' is not idle:busy; write the idle and full-bandwidth watts, e.g. 2.1:24.3");
  EXPECT_NE(bad([] { parse_wattage_range("l1", "13:3"); }).find("busy power 3 W is below idle power 13 W"),
            std::string::npos);
  EXPECT_NE(bad([] { parse_link_wattage_table("optical:1:2,optical:1:3", "k"); }).find("given twice"),
            std::string::npos);
  EXPECT_NE(bad([] { parse_link_wattage_table("optical:1", "k"); }).find("'optical:1' is not type:idle:busy"),
            std::string::npos);
  EXPECT_NE(bad([] { parse_link_wattage_table("optical:-1:2", "k"); }).find("negative wattage"), std::string::npos);
  EXPECT_NE(bad([] { parse_link_wattage_table("optical:x:2", "k"); }).find("not a number"), std::string::npos);
}

TEST(PowerTables, HostsAndLinksCsv)
{
  std::vector<HostRow> rows = {{"node-0", 675.5, 3, 2, 2, {3, 2}}, {"node-1", 0, 0, 7, 0, {7}}};
  EXPECT_EQ(hosts_csv(rows, 7),
            "host,energy_j,mean_power_w,busy_s,idle_s,idle_pct,off_s,pstate0_s,pstate1_s\n"
            "node-0,675.5,96.5,3,2,28.571428571428573,2,3,2\n"
            "node-1,0,0,0,7,100,0,7,\n");
  EXPECT_EQ(hosts_csv(rows, 0).substr(0, 68),
            "host,energy_j,mean_power_w,busy_s,idle_s,idle_pct,off_s,pstate0_s,ps");
  EXPECT_EQ(links_csv({{"l0", "optical", 1e9, 2.8104, 999999984, 0.5}}),
            "link,type,bytes,energy_j,payload_bytes,off_s\nl0,optical,1000000000,2.8104,999999984,0.5\n");
}

TEST(PowerTables, SeriesCollapsesAndSorts)
{
  PowerSeries s(2);
  s.record(0, 0, 100);
  s.record(1, 0, 50);
  s.record(0, 1, 160);
  s.record(0, 1, 180); // same instant: the last value holds
  s.record(1, 1, 50);  // unchanged: dropped
  s.record(1, 2, 60);
  s.record(0, 3, 200);
  s.record(0, 3, 180); // back to the previous value at the same instant: no point at 3
  EXPECT_EQ(s.csv({"a", "b"}), "time,host,watts\n0,a,100\n0,b,50\n1,a,180\n2,b,60\n");
}

TEST(LinkEnergyOff, OffPowerWhileSwitchedOff)
{
  auto t = haec::power::parse_link_wattage_table("optical:2.1:24.3:0.5,wireless:0:2.124", "cfg");
  EXPECT_EQ(t.at("optical").off, 0.5);
  EXPECT_EQ(t.at("wireless").off, 0.0);
  // 3 s on, 2 s off, 1e9 bytes at 31.25e9 B/s: 2.1 * 3 + 22.2 * 1e9 / 31.25e9 + 0.5 * 2
  EXPECT_NEAR(haec::power::link_energy_j(t.at("optical"), 31.25e9, 3, 1e9, 2), 6.3 + 0.7104 + 1.0, 1e-12);
  auto w = haec::power::parse_wattage_range("l2", "1:4", "0.25");
  EXPECT_EQ(w.off, 0.25);
  EXPECT_THROW(haec::power::parse_wattage_range("l2", "1:4", "-1"), haec::InputError);
  EXPECT_THROW(haec::power::parse_link_wattage_table("optical:2.1:24.3:-1", "cfg"), haec::InputError);
  EXPECT_THROW(haec::power::parse_link_wattage_table("optical:2.1:24.3:1:2", "cfg"), haec::InputError);
}
