// The call annotation of TI traces (libs/trace/call_annotation.hpp): written, read back, the
// actions grouped into calls as a replay does, and malformed or inconsistent ones refused with one line.
#include "call_annotation.hpp"
#include "input_error_support.hpp"
#include "replay_reader.hpp"

#include <gtest/gtest.h>

using haec::trace::CallAnnotation;
using haec::trace::CallGroups;
using haec::trace::format_call_annotation;
using haec::trace::parse_call_annotation;
using haec::trace::replay_fields;

namespace {

std::optional<CallAnnotation> parse(const std::string& line)
{
  return parse_call_annotation(replay_fields(line), "t.txt:3");
}

std::string error_of(const std::string& line)
{
  return haec::test::input_error_of([&] { parse(line); });
}

CallAnnotation call(uint32_t id, uint32_t enter, uint64_t actions, std::string site = "")
{
  CallAnnotation a;
  a.id      = id;
  a.enter   = enter;
  a.actions = actions;
  a.site    = std::move(site);
  return a;
}

} // namespace

TEST(CallAnnotation, WrittenThenReadGivesTheSameCall)
{
  CallAnnotation a = call(3, 1, 2, "MPI_Send@my app+0x1a2b");
  a.polling        = true;
  const std::string line = format_call_annotation(5, a);
  EXPECT_EQ(line, "# 5 haec_call 3 1 2 1 MPI_Send@my%20app+0x1a2b"); // a space in a name is encoded
  auto back = parse(line);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->id, 3u);
  EXPECT_EQ(back->enter, 1u);
  EXPECT_EQ(back->actions, 2u);
  EXPECT_TRUE(back->polling);
  EXPECT_EQ(back->site, a.site);
  auto again = parse(format_call_annotation(5, call(3, 0, 0)));
  ASSERT_TRUE(again.has_value());
  EXPECT_TRUE(again->site.empty()); // later uses of an ID carry no name
}

TEST(CallAnnotation, OtherCommentsAndActionsAreNotAnnotations)
{
  EXPECT_FALSE(parse("# a comment").has_value());
  EXPECT_FALSE(parse("0 compute 1e9").has_value());
  EXPECT_FALSE(parse("# 0 haec_counters A=1").has_value());
}

TEST(CallAnnotation, MalformedLinesAreOneLineErrors)
{
  EXPECT_NE(error_of("# 0 haec_call 1 0 2").find("t.txt:3: call annotation has 3 fields"), std::string::npos);
  EXPECT_NE(error_of("# 0 haec_call x 0 2 0 S").find("ID is 'x'"), std::string::npos);
  EXPECT_NE(error_of("# 0 haec_call 1 2 2 0 S").find("ENTER is 2, not 0 or 1"), std::string::npos);
  EXPECT_NE(error_of("# 0 haec_call 1 0 -2 0 S").find("ACTIONS is '-2'"), std::string::npos);
  EXPECT_NE(error_of("# 0 haec_call 1 0 2 yes S").find("POLL is 'yes'"), std::string::npos);
  EXPECT_NE(error_of("# 0 haec_call 1 0 2 0 a%2").find("not followed by two hex digits"), std::string::npos);
  EXPECT_NE(error_of("# r haec_call 1 0 2 0 S").find("rank is 'r'"), std::string::npos);
  for (const char* bad : {"# 0 haec_call 1 0 2", "# 0 haec_call 1 0 2 0 a%zz"})
    EXPECT_LE(error_of(bad).size(), 200u) << bad;
}

// A rank's actions: compute (the entry's computation), send, then a call entered at once with no
// action (MPI_Comm_rank-like), then a call whose two actions follow at once.
TEST(CallGroups, EntersAndLeavesAfterTheCountedActions)
{
  CallGroups g;
  CallGroups::Step now;
  EXPECT_EQ(g.announce(call(0, 1, 1, "MPI_Send@a+0x10"), "t:1", now), "MPI_Send@a+0x10");
  EXPECT_FALSE(now.enter);
  CallGroups::Step s = g.action(); // the entry's computation: entered after it
  EXPECT_TRUE(s.enter);
  EXPECT_FALSE(s.leave);
  s = g.action(); // the send: left after it
  EXPECT_FALSE(s.enter);
  EXPECT_TRUE(s.leave);
  EXPECT_FALSE(g.open());

  g.announce(call(1, 0, 0, "MPI_Comm_rank@a+0x20"), "t:3", now);
  EXPECT_TRUE(now.enter);
  EXPECT_TRUE(now.leave);
  EXPECT_FALSE(g.open());

  EXPECT_EQ(g.announce(call(0, 0, 2), "t:4", now), "MPI_Send@a+0x10"); // named before
  EXPECT_TRUE(now.enter);
  EXPECT_FALSE(now.leave);
  EXPECT_FALSE(g.action().leave);
  EXPECT_TRUE(g.action().leave);
  EXPECT_FALSE(g.action().enter); // an action outside any call: nothing
  EXPECT_NO_THROW(g.end("t:9"));
}

TEST(CallGroups, InconsistentAnnotationsAreOneLineErrors)
{
  auto error_of_calls = [](const std::vector<CallAnnotation>& calls) {
    CallGroups g;
    CallGroups::Step now;
    try {
      int line = 1;
      for (auto const& a : calls)
        g.announce(a, "t:" + std::to_string(line++), now);
      g.end("t:end");
    } catch (const haec::InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error_of_calls({call(4, 0, 0)}).find("call site 4 used before it is named"), std::string::npos);
  EXPECT_NE(error_of_calls({call(0, 0, 0, "A"), call(0, 0, 0, "B")}).find("already 'A'"), std::string::npos);
  EXPECT_NE(error_of_calls({call(0, 0, 1, "A"), call(1, 0, 0, "B")}).find("still open"), std::string::npos);
  EXPECT_NE(error_of_calls({call(0, 0, 1, "A")}).find("actions end inside the call announced at t:1"), std::string::npos);
}
