// Inputs found by the fuzz targets (tests/fuzz) that the units parsers once mishandled.
#include "input_error.hpp"
#include "platform_spec.hpp"
#include "units.hpp"

#include <gtest/gtest.h>

using namespace haec;

// fuzz_platform_spec: "optical-bw=1\0<junk>" was read as 1 B/s because the unit was taken up to
// the first '\0'; the junk then reached platform.json, whose dump() threw nlohmann's type_error
// (invalid UTF-8) instead of an InputError.
TEST(CommonFuzzRegressions, NulInsideAQuantityIsRejected)
{
  const std::string junk("1\0\xf4junk", 7);
  EXPECT_THROW(units::parse_number(junk, "x"), InputError);
  EXPECT_THROW(units::parse_bandwidth(junk, "x"), InputError);
  EXPECT_THROW(units::parse_time(junk, "x"), InputError);
  EXPECT_THROW(units::parse_speed(junk, "x"), InputError);
  EXPECT_THROW(units::parse_bandwidth(std::string("1Gbps\0", 6), "x"), InputError);
  EXPECT_EQ(units::parse_bandwidth("8Gbps", "x"), 1e9); // unchanged for ordinary text
  EXPECT_EQ(units::parse_time("10ns", "x"), 10e-9);

  const std::string spec("haec-box:2x2x2,optical-bw=1\0link-lat=\xf4", 38);
  EXPECT_THROW(platform::parse_spec(spec), InputError);
}

// fuzz_units: "1e308kbps" is a finite number with a valid unit, but 1e308 * 125 B/s is +inf;
// parse_bandwidth returned inf (and parse_speed "1e300Tf", which `haec run --host-speed` only
// validates before handing the text to SimGrid). Out-of-range values are now InputErrors.
TEST(CommonFuzzRegressions, ScaledValueBeyondDoubleIsRejected)
{
  EXPECT_THROW(units::parse_bandwidth("1e308kbps", "x"), InputError);
  EXPECT_THROW(units::parse_bandwidth("1e300TBps", "x"), InputError);
  EXPECT_THROW(units::parse_speed("1e300Tf", "x"), InputError);
  EXPECT_EQ(units::parse_bandwidth("1e308bps", "x"), 1e308 / 8); // bits shrink: still finite
  EXPECT_EQ(units::parse_speed("1e296Tf", "x"), 1e296 * 1e12);
  EXPECT_EQ(units::parse_time("1e308ms", "x"), 1e308 * 1e-3);
}
