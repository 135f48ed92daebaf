// Error lines are bounded (text::error_line, text::one_line): whatever an input quotes, the line
// stays within about kMessageBudget characters and still names the input, its end included.
#include "input_error.hpp"
#include "text.hpp"

#include <gtest/gtest.h>

using namespace haec;

TEST(ErrorLine, ShortMessagesAreUnchanged)
{
  EXPECT_EQ(text::error_line("--np 0", "is not a positive rank count", "give -np N"),
            "--np 0: is not a positive rank count; give -np N");
  EXPECT_EQ(text::error_line("x", "bad", ""), "x: bad");
  EXPECT_STREQ(InputError("a.json:3", "is not valid JSON", "fix it").what(), "a.json:3: is not valid JSON; fix it");
}

TEST(ErrorLine, AHugeInputIsCutInItsMiddle)
{
  const std::string spec = "haec-box:" + std::string(100000, '4') + "x4x4";
  const std::string line = InputError(spec, "dimension is not a positive integer", "write e.g. haec-box:4x4x4").what();
  EXPECT_LE(text::display_length(line), text::kMessageBudget);
  EXPECT_EQ(line.rfind("haec-box:4", 0), 0u) << line;              // the start of the input
  EXPECT_NE(line.find("..."), std::string::npos) << line;                  // its middle cut
  EXPECT_NE(line.find("44x4x4: dimension"), std::string::npos) << line;    // its end
  EXPECT_NE(line.find("; write e.g. haec-box:4x4x4"), std::string::npos) << line; // the whole fix
}

TEST(ErrorLine, QuotedExcerptsAreCutFirst)
{
  const std::string name(5000, 'c');
  const std::string line = InputError("--counters", "unknown event '" + name + "'", "see papi_avail").what();
  EXPECT_LE(text::display_length(line), text::kMessageBudget);
  EXPECT_NE(line.find("unknown event 'cccc"), std::string::npos);
  EXPECT_NE(line.find("...'; see papi_avail"), std::string::npos) << line;
}

TEST(ErrorLine, EveryPartLongStillFits)
{
  const std::string long_path = "/" + std::string(300, 'd') + "/out";
  const std::string line =
      InputError(long_path, "problem " + std::string(400, 'p'), "fix " + std::string(400, 'f')).what();
  EXPECT_LE(text::display_length(line), text::kMessageBudget);
  EXPECT_NE(line.find("d/out: problem"), std::string::npos) << line;
  EXPECT_NE(line.find("; fix ff"), std::string::npos) << line;
}

TEST(ErrorLine, CutsNeverSplitUtf8OrEscapes)
{
  std::string input;
  for (int i = 0; i < 200; ++i)
    input += i % 2 ? "\xc3\xa9" : "\x1b"; // é and ESC, escaped as \x1b
  const std::string line = InputError(input, "bad", "").what();
  EXPECT_LE(text::display_length(line), text::kMessageBudget);
  EXPECT_EQ(text::escaped(line), line) << "valid UTF-8 and no raw control byte";
  EXPECT_EQ(line.find("\\x1...") , std::string::npos) << line;
  EXPECT_EQ(line.find("\\...") , std::string::npos) << line;
}

TEST(ErrorLine, OneLineBoundsAnyMessage)
{
  const std::string message = "cannot write /" + std::string(1000, 'o') + "/x: No space left on device";
  const std::string line    = text::one_line(message);
  EXPECT_LE(text::display_length(line), text::kMessageBudget);
  EXPECT_NE(line.find("No space left on device"), std::string::npos);
  EXPECT_EQ(text::one_line(line), line) << "bounding twice changes nothing";
}
