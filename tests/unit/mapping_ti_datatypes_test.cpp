// The byte size of a TI trace's datatype id (libs/mapping/ti_datatypes.cpp), read by hand for every
// replayed message: canonical ids 0-59 give SimGrid 3.32's sizes, -1 (MPI_DATATYPE_NULL) gives 0,
// anything else -1 (unknown, the caller's error or default).
#include "mapping_detail.hpp"

#include <gtest/gtest.h>

#include <string>

using haec::mapping::detail::ti_datatype_size;

TEST(TiDatatypes, KnownIdsGiveTheirCTypesSize)
{
  EXPECT_EQ(ti_datatype_size("0"), 8);   // MPI_DOUBLE
  EXPECT_EQ(ti_datatype_size("1"), 4);   // MPI_INT
  EXPECT_EQ(ti_datatype_size("2"), 1);   // MPI_CHAR
  EXPECT_EQ(ti_datatype_size("9"), 1);   // MPI_UNSIGNED_CHAR
  EXPECT_EQ(ti_datatype_size("10"), 2);  // MPI_UNSIGNED_SHORT
  EXPECT_EQ(ti_datatype_size("27"), 32); // MPI_C_LONG_DOUBLE_COMPLEX
  EXPECT_EQ(ti_datatype_size("55"), 0);  // MPI_UB
  EXPECT_EQ(ti_datatype_size("59"), 8);  // MPI_COUNT
  EXPECT_EQ(ti_datatype_size("-1"), 0);  // MPI_DATATYPE_NULL
}

TEST(TiDatatypes, EveryOtherTextIsUnknown)
{
  for (const char* id : {"", "60", "99", "100", "05", "00", "-2", "-", "-10", "1-", "x", "5a", "a5", " 5", "5 ", "+5", "1.0"})
    EXPECT_EQ(ti_datatype_size(id), -1) << "id '" << id << "'";
}

TEST(TiDatatypes, KnowsExactlyTheCanonicalIdsAmongAllShortTexts)
{
  // Every text of one or two bytes: known (size >= 0) exactly when it is -1 or a number below 60
  // written without a sign, a space or a leading zero, as the trace writer prints them.
  auto known = [](const std::string& id) {
    if (id == "-1")
      return true;
    if (id.find_first_not_of("0123456789") != std::string::npos || (id.size() == 2 && id[0] == '0'))
      return false;
    return std::stoi(id) < 60;
  };
  int texts = 0, known_ids = 0;
  for (int a = 1; a < 256; ++a)
    for (int b = 0; b < 256; ++b) {
      std::string id(1, char(a));
      if (b > 0)
        id += char(b);
      ASSERT_EQ(ti_datatype_size(id) >= 0, known(id)) << "id '" << id << "'";
      ++texts;
      known_ids += known(id);
    }
  EXPECT_EQ(texts, 255 * 256);
  EXPECT_EQ(known_ids, 61); // 0-59 and -1
}
