// The progress line's text (core/model/progress_line.hpp): every field, hand-computed figures,
// the terminal width, and the time left only once something can be told.
#include "core_settings.hpp"
#include "input_error.hpp"
#include "progress_line.hpp"
#include "settings.hpp"

#include <gtest/gtest.h>

using namespace haec::core;

TEST(ProgressLine, Parts)
{
  EXPECT_EQ(progress_count(0), "0");
  EXPECT_EQ(progress_count(999), "999");
  EXPECT_EQ(progress_count(1000), "1,000");
  EXPECT_EQ(progress_count(2666492), "2,666,492");
  EXPECT_EQ(progress_rate(950), "950/s");
  EXPECT_EQ(progress_rate(38250), "38.2k/s"); // 38.25 rounds to even in printf: 38.2
  EXPECT_EQ(progress_rate(1250000), "1.25M/s");
  EXPECT_EQ(progress_rate(-1), "0/s");
  EXPECT_EQ(progress_duration(0.2), "<1 s");
  EXPECT_EQ(progress_duration(12.4), "12 s");
  EXPECT_EQ(progress_duration(185), "3 min 05 s");
  EXPECT_EQ(progress_duration(3720), "1 h 02 min");
  EXPECT_EQ(progress_sim_time(12.5), "12.500 s");
  EXPECT_EQ(progress_sim_time(0.0085), "8.500 ms");
  EXPECT_EQ(progress_sim_time(3.5e-6), "3.500 us");
  EXPECT_EQ(progress_sim_time(0), "0.000 s");
}

TEST(ProgressLine, TimeLeftFromThePaceSoFar)
{
  EXPECT_DOUBLE_EQ(progress_time_left(0.25, 10), 30); // a quarter in 10 s: three quarters in 30 s
  EXPECT_DOUBLE_EQ(progress_time_left(1, 10), 0);
  EXPECT_DOUBLE_EQ(progress_time_left(1.2, 10), 0); // a share past 1 counts as 1
  EXPECT_LT(progress_time_left(0.001, 10), 0);      // too little done to tell
  EXPECT_LT(progress_time_left(0.5, 0.5), 0);       // too soon to tell
}

TEST(ProgressLine, ReplayShowsEveryField)
{
  ProgressFigures f;
  f.simulated_s     = 0.0012345;
  f.wall_s          = 4;
  f.transfers_known = true;
  f.transfers       = 40000;
  f.replay          = true;
  f.replayed        = 0.4299;
  f.replay_wall_s   = 3;
  EXPECT_EQ(progress_line(f, 0), "simulated 1.234 ms | 40,000 transfers, 10.0k/s | 42% replayed, ~4 s left");
  f.replayed      = 0.999;
  EXPECT_EQ(progress_line(f, 0), "simulated 1.234 ms | 40,000 transfers, 10.0k/s | 99% replayed, <1 s left");
  f.replayed      = 0.4299;
  f.replay_wall_s = 0.5;
  EXPECT_EQ(progress_line(f, 0), "simulated 1.234 ms | 40,000 transfers, 10.0k/s | 42% replayed, estimating time left");
}

TEST(ProgressLine, EmulationShowsTimeAndTransfersOnly)
{
  ProgressFigures f;
  f.simulated_s     = 2;
  f.wall_s          = 2;
  f.transfers_known = true;
  f.transfers       = 10;
  EXPECT_EQ(progress_line(f, 0), "simulated 2.000 s | 10 transfers, 5/s");
  f.transfers_known = false;
  EXPECT_EQ(progress_line(f, 0), "simulated 2.000 s");
}

TEST(ProgressLine, FitsTheTerminal)
{
  ProgressFigures f;
  f.simulated_s = 2;
  f.transfers_known = true;
  f.transfers = 10;
  EXPECT_EQ(progress_line(f, 12), "simulated 2"); // 11 characters: the last column is left free
  EXPECT_EQ(progress_line(f, 200).size(), std::string("simulated 2.000 s | 10 transfers, 5/s").size());
}

TEST(ProgressLine, SettingTakesATerminalOnly)
{
  haec::settings::Values v(settings_table(), haec::settings::Source::Suite);
  v.give("haec/progress", "/dev/null"); // a character device, not a terminal
  EXPECT_THROW(settings_table().validate(v), haec::InputError);
  haec::settings::Values none(settings_table(), haec::settings::Source::Suite);
  none.give("haec/progress", "");
  EXPECT_NO_THROW(settings_table().validate(none));
}
