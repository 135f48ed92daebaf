// elf_needed_libraries (libs/common/elf_needed.hpp): the DT_NEEDED entries of real ELF files of
// this machine, and nothing for files that are not 64-bit ELF programs.
#include "elf_needed.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>

namespace {

bool names(const std::vector<std::string>& v, const std::string& lib)
{
  return std::find(v.begin(), v.end(), lib) != v.end();
}

} // namespace

TEST(ElfNeeded, ReadsTheDynamicSectionOfRealPrograms)
{
  // /bin/sh (dash) needs the C library; libstdc++ needs libm and the C library too.
  const auto sh = haec::elf_needed_libraries("/bin/sh");
  EXPECT_TRUE(names(sh, "libc.so.6")) << sh.size();
  const auto cxx = haec::elf_needed_libraries("/usr/lib/x86_64-linux-gnu/libstdc++.so.6");
  EXPECT_TRUE(names(cxx, "libm.so.6"));
  EXPECT_TRUE(names(cxx, "libc.so.6"));
  EXPECT_FALSE(names(cxx, "libhaec_pmpi.so"));
}

TEST(ElfNeeded, NothingForFilesThatAreNotElfPrograms)
{
  EXPECT_TRUE(haec::elf_needed_libraries("/nonexistent/program").empty());
  const std::string path = testing::TempDir() + "elf_needed_not_elf";
  std::ofstream(path) << "#!/bin/sh\necho libhaec_pmpi.so\n";
  EXPECT_TRUE(haec::elf_needed_libraries(path).empty());
  std::ofstream(path, std::ios::binary) << std::string("\x7f" "ELF\x02\x01", 6); // a truncated header
  EXPECT_TRUE(haec::elf_needed_libraries(path).empty());
  std::remove(path.c_str());
}
