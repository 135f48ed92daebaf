// Spec strings, validation and platform.json of haec::platform (libs/platform/model/platform_spec.*).
#include "input_error.hpp"
#include "platform_spec.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace haec::platform;

namespace {

std::string error_of(const std::string& spec)
{
  try {
    parse_spec(spec);
  } catch (const haec::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

std::string json_error_of(const nlohmann::json& j)
{
  try {
    from_json(j, "plat.json");
  } catch (const haec::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

} // namespace

TEST(PlatformSpec, HaecBoxDefaults)
{
  auto s = parse_spec("haec-box:4x4x4");
  EXPECT_EQ(s.kind, Kind::HaecBox);
  EXPECT_EQ(s.dims, (std::array<int, 3>{4, 4, 4}));
  EXPECT_TRUE(s.board_torus);
  EXPECT_FALSE(s.wireless_full);
  ASSERT_EQ(s.link_types.size(), 2u);
  EXPECT_EQ(s.link_types[0].name, "optical");
  EXPECT_DOUBLE_EQ(s.link_types[0].bandwidth, 31.25e9); // 250 Gbit/s
  EXPECT_DOUBLE_EQ(s.link_types[0].latency, 10e-9);
  EXPECT_DOUBLE_EQ(s.link_types[0].ber, 1e-12);
  EXPECT_EQ(s.link_types[1].name, "wireless");
  EXPECT_DOUBLE_EQ(s.link_types[1].bandwidth, 12.5e9); // 100 Gbit/s
  EXPECT_DOUBLE_EQ(s.link_types[1].latency, 100e-9);
  EXPECT_DOUBLE_EQ(s.link_types[1].ber, 1e-8);
  EXPECT_EQ(s.node.cores, 8);
  ASSERT_EQ(s.node.speeds.size(), 12u); // the default pstates (docs/MODELS.md §4.1), pstate 0 first
  EXPECT_DOUBLE_EQ(s.node.speeds.front(), 1e9);
  EXPECT_DOUBLE_EQ(s.loopback_bandwidth, 100e9);
  EXPECT_DOUBLE_EQ(s.loopback_latency, 10e-9);
  EXPECT_EQ(s.spec_text, "haec-box:4x4x4");
}

TEST(PlatformSpec, Ciorba2014PresetAndOverride)
{
  auto s = parse_spec("haec-box:3x3x3,preset=ciorba2014");
  EXPECT_FALSE(s.board_torus);
  EXPECT_FALSE(s.wireless_full);
  for (auto const& t : s.link_types) {
    EXPECT_DOUBLE_EQ(t.bandwidth, 31.25e9);
    EXPECT_DOUBLE_EQ(t.latency, 1e-6);
    EXPECT_EQ(t.ber, 0.0);
  }
  auto o = parse_spec("haec-box:3x3x3,preset=ciorba2014,board=torus,wireless-lat=2us,wireless=full");
  EXPECT_TRUE(o.board_torus);
  EXPECT_TRUE(o.wireless_full);
  EXPECT_DOUBLE_EQ(o.link_types[1].latency, 2e-6);
  EXPECT_DOUBLE_EQ(o.link_types[0].latency, 1e-6);
  // The preset's earlier name gives the same platform.
  auto old = parse_spec("haec-box:3x3x3,preset=seed004");
  EXPECT_EQ(old.board_torus, s.board_torus);
  EXPECT_EQ(old.wireless_full, s.wireless_full);
  ASSERT_EQ(old.link_types.size(), s.link_types.size());
  for (size_t i = 0; i < s.link_types.size(); ++i)
    EXPECT_DOUBLE_EQ(old.link_types[i].bandwidth, s.link_types[i].bandwidth);
}

TEST(PlatformSpec, GeminiAndClusterDefaults)
{
  for (auto const* text : {"mesh:16x16x16", "torus:2x3x4"}) {
    auto s = parse_spec(text);
    ASSERT_EQ(s.link_types.size(), 1u);
    EXPECT_EQ(s.link_types[0].name, "link");
    EXPECT_DOUBLE_EQ(s.link_types[0].bandwidth, 9.375e9);
    EXPECT_DOUBLE_EQ(s.link_types[0].latency, 1.27e-6);
    EXPECT_EQ(s.link_types[0].ber, 0.0);
    EXPECT_EQ(s.node.cores, 16);
    ASSERT_EQ(s.node.speeds.size(), 12u);
    EXPECT_DOUBLE_EQ(s.node.speeds.front(), 2.3e9);
  }
  auto c = parse_spec("cluster:8");
  EXPECT_EQ(c.kind, Kind::Cluster);
  EXPECT_EQ(c.dims, (std::array<int, 3>{8, 1, 1}));
  EXPECT_EQ(c.link_types[0].name, "cable");
  EXPECT_DOUBLE_EQ(c.link_types[0].bandwidth, 1.25e9); // 10 Gbit/s
  EXPECT_DOUBLE_EQ(c.link_types[0].latency, 1.5e-6);
  EXPECT_EQ(c.node.cores, 12);
  ASSERT_EQ(c.node.speeds.size(), 12u);
  EXPECT_DOUBLE_EQ(c.node.speeds.front(), 2.3e9);
  EXPECT_DOUBLE_EQ(c.node.speeds[5], 1.8e9);
  EXPECT_DOUBLE_EQ(c.node.speeds.back(), 1.2e9);
}

TEST(PlatformSpec, KeysWithUnits)
{
  auto s = parse_spec("haec-box:2x2x2,optical-bw=100Gbps,optical-lat=5ns,optical-ber=0,wireless-bw=1GBps,"
                      "wireless-ber=1e-6,cores=2,speeds=3Gf/2Gf/500Mf,loopback-bw=8Gbps,loopback-lat=0");
  EXPECT_DOUBLE_EQ(s.link_types[0].bandwidth, 12.5e9);
  EXPECT_DOUBLE_EQ(s.link_types[0].latency, 5e-9);
  EXPECT_EQ(s.link_types[0].ber, 0.0);
  EXPECT_DOUBLE_EQ(s.link_types[1].bandwidth, 1e9);
  EXPECT_DOUBLE_EQ(s.link_types[1].ber, 1e-6);
  EXPECT_EQ(s.node.cores, 2);
  EXPECT_EQ(s.node.speeds, (std::vector<double>{3e9, 2e9, 5e8}));
  EXPECT_DOUBLE_EQ(s.loopback_bandwidth, 1e9);
  EXPECT_EQ(s.loopback_latency, 0.0);

  auto c = parse_spec("cluster:3,link-bw=1000,link-lat=2us,speed=1.5Gf");
  EXPECT_DOUBLE_EQ(c.link_types[0].bandwidth, 1000);
  EXPECT_DOUBLE_EQ(c.link_types[0].latency, 2e-6);
  EXPECT_EQ(c.node.speeds, (std::vector<double>{1.5e9}));
  EXPECT_EQ(parse_spec("torus:1x1x1").dims, (std::array<int, 3>{1, 1, 1}));
  EXPECT_EQ(parse_spec("mesh:4194304x1x1").dims[0], 1 << 22); // the node limit itself is fine
}

struct BadSpec {
  const char* spec;
  const char* fragment;
};

class PlatformSpecBad : public ::testing::TestWithParam<BadSpec> {};

TEST_P(PlatformSpecBad, ThrowsNamingSpecAndProblem)
{
  const auto& p   = GetParam();
  std::string msg = error_of(p.spec);
  EXPECT_NE(msg.find(p.fragment), std::string::npos) << "message: " << msg;
  if (*p.spec) {
    EXPECT_EQ(msg.rfind(p.spec, 0), 0u) << "message does not start with the spec: " << msg;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Messages, PlatformSpecBad,
    ::testing::Values(
        BadSpec{"", "expected KIND:DIMS"}, BadSpec{"haec-box", "expected KIND:DIMS"},
        BadSpec{"hypercube:4x4x4", "unknown platform kind 'hypercube'; use one of haec-box, mesh, torus, cluster"},
        BadSpec{"haec-box:4x4", "must be AxBxC"}, BadSpec{"torus:4x4x4x4", "must be AxBxC"},
        BadSpec{"mesh:0x4x4", "dimension '0' in '0x4x4' is not a positive integer"},
        BadSpec{"mesh:4x-1x4", "dimension '-1'"}, BadSpec{"mesh:4xax4", "dimension 'a'"},
        BadSpec{"mesh:4x4x", "dimension ''"}, BadSpec{"cluster:0", "dimension '0'"},
        BadSpec{"cluster:4x4", "must be one integer N"}, BadSpec{"torus:256x256x65", "more than 4194304 nodes"},
        BadSpec{"torus:99999999999x1x1", "is not a positive integer"},
        BadSpec{"haec-box:4x4x4,colour=red", "unknown key 'colour'; valid keys for haec-box: preset, board"},
        BadSpec{"torus:4x4x4,board=mesh", "key 'board' does not apply to torus; valid keys for torus: link-bw"},
        BadSpec{"haec-box:4x4x4,link-bw=1Gbps", "key 'link-bw' does not apply to haec-box"},
        BadSpec{"cluster:4,optical-lat=1ns", "key 'optical-lat' does not apply to cluster"},
        BadSpec{"haec-box:4x4x4,board=ring", "board must be torus or mesh, not 'ring'"},
        BadSpec{"haec-box:4x4x4,wireless=some", "wireless must be aligned or full"},
        BadSpec{"haec-box:4x4x4,preset=seed005", "unknown preset 'seed005'"},
        BadSpec{"haec-box:4x4x4,board=mesh,preset=ciorba2014", "preset must be the first key"},
        BadSpec{"haec-box:4x4x4,cores=2,cores=3", "key 'cores' given twice"},
        BadSpec{"haec-box:4x4x4,cores", "'cores' is not key=value"},
        BadSpec{"haec-box:4x4x4,cores=", "'cores=' is not key=value"},
        BadSpec{"haec-box:4x4x4,", "'' is not key=value"},
        BadSpec{"haec-box:4x4x4,cores=0", "cores=0 is out of range"},
        BadSpec{"haec-box:4x4x4,cores=-2", "is not a non-negative integer"},
        BadSpec{"haec-box:4x4x4,optical-bw=0Gbps", "optical bandwidth 0 B/s is not positive"},
        BadSpec{"haec-box:4x4x4,optical-bw=fast", "'fast' is not a bandwidth"},
        BadSpec{"haec-box:4x4x4,optical-bw=10Gbit", "unknown bandwidth unit 'Gbit'"},
        BadSpec{"haec-box:4x4x4,wireless-lat=-1us", "wireless latency -1e-06 s is negative"},
        BadSpec{"haec-box:4x4x4,optical-ber=1", "optical bit error rate 1 is outside [0,1)"},
        BadSpec{"haec-box:4x4x4,wireless-ber=-0.1", "is outside [0,1)"},
        BadSpec{"torus:4x4x4,link-lat=inf", "is not a time"},
        BadSpec{"torus:4x4x4,speed=0f", "speed 0 flop/s is not positive"},
        BadSpec{"torus:4x4x4,speeds=1Gf/2Gf", "speeds are not listed fastest first"},
        BadSpec{"torus:4x4x4,speed=1Gf,speeds=2Gf/1Gf", "both speed= and speeds= given"},
        BadSpec{"torus:4x4x4,loopback-bw=0", "loopback bandwidth 0 B/s is not positive"},
        BadSpec{"haec-box:64x64x3,wireless=full", "directed links, more than the limit"}));

TEST(PlatformSpec, ValidateRejectsHandMadeSpecs)
{
  auto s    = parse_spec("torus:2x2x2");
  s.dims[1] = 0;
  EXPECT_THROW(validate(s, "x"), haec::InputError);
  s = parse_spec("cluster:4");
  s.dims = {4, 2, 1};
  EXPECT_THROW(validate(s, "x"), haec::InputError);
  s = parse_spec("mesh:2x2x2");
  s.wireless_full = true;
  EXPECT_THROW(validate(s, "x"), haec::InputError);
  s = parse_spec("haec-box:2x2x2");
  std::swap(s.link_types[0], s.link_types[1]);
  EXPECT_THROW(validate(s, "x"), haec::InputError);
  s = parse_spec("haec-box:2x2x2");
  s.node.speeds.clear();
  EXPECT_THROW(validate(s, "x"), haec::InputError);
}

TEST(PlatformSpec, DirectedLinkCount)
{
  EXPECT_EQ(directed_link_count(parse_spec("haec-box:4x4x4")), 4 * 64 + 2 * 3 * 16);         // 352
  EXPECT_EQ(directed_link_count(parse_spec("haec-box:4x4x4,wireless=full")), 4 * 64 + 2 * 768); // 1792
  EXPECT_EQ(directed_link_count(parse_spec("haec-box:4x4x4,board=mesh")), 4 * 48 + 96);
  EXPECT_EQ(directed_link_count(parse_spec("torus:2x2x2")), 2 * 12); // one wire per 2-ring
  EXPECT_EQ(directed_link_count(parse_spec("torus:4x1x1")), 8);
  EXPECT_EQ(directed_link_count(parse_spec("mesh:3x3x3")), 2 * 3 * 18);
  EXPECT_EQ(directed_link_count(parse_spec("cluster:5")), 10);
}

TEST(PlatformJson, RoundTripKeepsEveryField)
{
  for (auto const* text :
       {"haec-box:4x4x4", "haec-box:3x2x5,preset=ciorba2014,wireless=full,cores=3,speeds=3.1Gf/1.7Gf,loopback-lat=0",
        "mesh:2x3x4,link-ber=1e-9", "torus:16x16x16", "cluster:8,loopback-bw=41Gbps"}) {
    auto s = parse_spec(text);
    // Through text, as a platform.json file would go.
    auto back = from_json(nlohmann::json::parse(to_json(s).dump(2)), "p.json");
    EXPECT_EQ(back.kind, s.kind) << text;
    EXPECT_EQ(back.dims, s.dims) << text;
    EXPECT_EQ(back.board_torus, s.board_torus) << text;
    EXPECT_EQ(back.wireless_full, s.wireless_full) << text;
    ASSERT_EQ(back.link_types.size(), s.link_types.size());
    for (size_t i = 0; i < s.link_types.size(); ++i) {
      EXPECT_EQ(back.link_types[i].name, s.link_types[i].name);
      EXPECT_EQ(back.link_types[i].bandwidth, s.link_types[i].bandwidth) << text;
      EXPECT_EQ(back.link_types[i].latency, s.link_types[i].latency) << text;
      EXPECT_EQ(back.link_types[i].ber, s.link_types[i].ber) << text;
    }
    EXPECT_EQ(back.node.cores, s.node.cores);
    EXPECT_EQ(back.node.speeds, s.node.speeds);
    EXPECT_EQ(back.loopback_bandwidth, s.loopback_bandwidth);
    EXPECT_EQ(back.loopback_latency, s.loopback_latency);
    EXPECT_EQ(back.spec_text, text);
    EXPECT_EQ(to_json(back), to_json(s));
  }
}

TEST(PlatformJson, StableFieldNames)
{
  auto j = to_json(parse_spec("haec-box:2x2x2"));
  EXPECT_EQ(j.at("format"), "haec-platform");
  EXPECT_EQ(j.at("version"), 1);
  EXPECT_EQ(j.at("kind"), "haec-box");
  EXPECT_EQ(j.at("dims"), nlohmann::json({2, 2, 2}));
  EXPECT_EQ(j.at("board"), "torus");
  EXPECT_EQ(j.at("wireless"), "aligned");
  EXPECT_EQ(j.at("links").at("optical").at("bandwidth_Bps"), 31.25e9);
  EXPECT_EQ(j.at("links").at("wireless").at("latency_s"), 100e-9);
  EXPECT_EQ(j.at("links").at("wireless").at("ber"), 1e-8);
  EXPECT_EQ(j.at("node").at("cores"), 8);
  // Issue 21: 12 pstates, the first the former single 1 Gf (MODELS.md §4.1).
  EXPECT_EQ(j.at("node").at("speeds_flops").size(), 12u);
  EXPECT_EQ(j.at("node").at("speeds_flops")[0], 1e9);
  EXPECT_EQ(j.at("loopback").at("latency_s"), 10e-9);
  EXPECT_FALSE(to_json(parse_spec("torus:2x2x2")).contains("board"));
}

TEST(PlatformJson, FromJsonValidates)
{
  const auto good = to_json(parse_spec("haec-box:2x2x2"));
  auto with = [&](auto change) {
    auto j = good;
    change(j);
    return json_error_of(j);
  };
  EXPECT_EQ(json_error_of(good), "(no error)");
  EXPECT_EQ(json_error_of(nlohmann::json::array()), "plat.json: is not a JSON object; regenerate the file with `haec platform`");
  EXPECT_NE(with([](auto& j) { j.erase("dims"); }).find("plat.json: missing field 'dims'"), std::string::npos);
  EXPECT_NE(with([](auto& j) { j["format"] = "other"; }).find("field 'format'"), std::string::npos);
  EXPECT_NE(with([](auto& j) { j["version"] = 2; }).find("unsupported version"), std::string::npos);
  EXPECT_NE(with([](auto& j) { j["kind"] = "ring"; }).find("unknown platform kind 'ring'"), std::string::npos);
  EXPECT_NE(with([](auto& j) { j["cores"] = 4; }).find("unknown field 'cores'"), std::string::npos);
  EXPECT_NE(with([](auto& j) { j["dims"] = {2, 0, 2}; }).find("dimension 0"), std::string::npos);
  EXPECT_NE(with([](auto& j) { j["dims"] = {2, 2}; }).find("array of 3 integers"), std::string::npos);
  EXPECT_NE(with([](auto& j) { j["dims"] = {2, 2.5, 2}; }).find("'dims[1]' is not an integer"), std::string::npos);
  EXPECT_NE(with([](auto& j) { j["board"] = "ring"; }).find("board must be"), std::string::npos);
  EXPECT_NE(with([](auto& j) { j["links"]["optical"]["bandwidth_Bps"] = -1; }).find("optical bandwidth -1 B/s is not positive"),
            std::string::npos);
  EXPECT_NE(with([](auto& j) { j["links"]["wireless"]["ber"] = 1.5; }).find("outside [0,1)"), std::string::npos);
  EXPECT_NE(with([](auto& j) { j["links"]["wireless"]["latency_s"] = "1us"; }).find("'links.wireless.latency_s' is not a number"),
            std::string::npos);
  EXPECT_NE(with([](auto& j) { j["links"]["cable"] = j["links"]["optical"]; }).find("unknown field 'links.cable'"),
            std::string::npos);
  EXPECT_NE(with([](auto& j) { j["links"].erase("wireless"); }).find("missing field 'links.wireless'"), std::string::npos);
  EXPECT_NE(with([](auto& j) { j["node"]["cores"] = 0; }).find("node.cores=0"), std::string::npos);
  EXPECT_NE(with([](auto& j) { j["node"]["speeds_flops"] = nlohmann::json::array(); }).find("no node speed"),
            std::string::npos);
  EXPECT_NE(with([](auto& j) { j["loopback"]["bandwidth_Bps"] = 0; }).find("loopback bandwidth"), std::string::npos);
  EXPECT_NE(with([](auto& j) { j["kind"] = "torus"; }).find("unknown field 'board'"), std::string::npos);
  // spec is optional: the file name stands in.
  EXPECT_EQ(from_json([&] { auto j = good; j.erase("spec"); return j; }(), "f.json").spec_text, "f.json");
}
